#include "models/analysis/metric_data.h"

#include <algorithm>
#include <cmath>

namespace stepscope {

const std::vector<MetricTrack> &MetricData::tracks(const std::string &name) const {
    static const std::vector<MetricTrack> none;
    const auto it = series.find(name);
    return it == series.end() ? none : it->second;
}

std::vector<double> MetricData::values(const std::string &name, int64_t lo, int64_t hi) const {
    std::vector<double> out;
    for (const MetricTrack &t : tracks(name))
        for (const MetricPoint &p : t.points)
            if (lo >= hi || (p.t >= lo && p.t <= hi)) out.push_back(p.v);
    return out;
}

MetricData MetricData::load(const SessionStore &store, const RunRow &run, bool singleRun) {
    MetricData d;
    SqliteStatement st(store.db(),
        "SELECT ms.id, ms.name, ms.unit, ms.device, m.t_ns + COALESCE(o.clock_offset_ns, 0), m.value "
        "FROM metric_series ms JOIN metric_sample m ON m.series_id = ms.id JOIN source so ON so.id = ms.source_id "
        "LEFT JOIN source_setting o ON o.path = so.path "
        "WHERE ?3 OR ms.run = '' OR ms.run = ?1 OR ms.run = ?2 ORDER BY ms.id, m.t_ns");
    st.bind(1, run.name);
    st.bind(2, run.host);
    st.bind(3, int64_t(singleRun ? 1 : 0));
    int64_t current = -1;
    MetricTrack *track = nullptr;
    while (st.step()) {
        const int64_t id = st.columnInt(0);
        if (id != current) {
            current = id;
            MetricTrack t;
            t.name = st.columnText(1);
            t.unit = st.columnText(2);
            t.device = st.columnIsNull(3) ? -1 : int(st.columnInt(3));
            auto &list = d.series[t.name];
            // Several sources may hold the same device's series: append to it.
            auto it = std::find_if(list.begin(), list.end(), [&](const MetricTrack &x) { return x.device == t.device; });
            track = it != list.end() ? &*it : &list.emplace_back(std::move(t));
        }
        const double v = st.columnDouble(5);
        if (std::isfinite(v)) track->points.push_back({st.columnInt(4), v});
    }
    for (auto &[name, list] : d.series)
        for (MetricTrack &t : list)
            std::stable_sort(t.points.begin(), t.points.end(), [](const MetricPoint &a, const MetricPoint &b) { return a.t < b.t; });
    return d;
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * double(values.size()));
    const size_t idx = size_t(std::clamp(rank, 1.0, double(values.size()))) - 1;
    return values[idx];
}

} // namespace stepscope

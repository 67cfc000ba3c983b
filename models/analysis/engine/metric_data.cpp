#include "models/analysis/engine/metric_data.h"

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

MetricCatalog MetricCatalog::load(const SessionStore &store) {
    MetricCatalog c;
    SqliteStatement st(store.db(),
        "SELECT ms.id, ms.run, ms.name, ms.unit, ms.device, COALESCE(o.clock_offset_ns, 0) "
        "FROM metric_series ms JOIN source so ON so.id = ms.source_id "
        "LEFT JOIN source_setting o ON o.path = so.path ORDER BY ms.id");
    while (st.step()) {
        Series s;
        s.id = st.columnInt(0);
        s.name = st.columnText(2);
        s.unit = st.columnText(3);
        s.device = st.columnIsNull(4) ? -1 : int(st.columnInt(4));
        s.offsetNs = st.columnInt(5);
        c.m_byRun[st.columnText(1)].push_back(c.m_series.size());
        c.m_series.push_back(std::move(s));
    }
    return c;
}

std::vector<const MetricCatalog::Series *> MetricCatalog::forRun(const RunRow &run, bool singleRun) const {
    std::vector<const Series *> out;
    if (singleRun) {
        for (const Series &s : m_series) out.push_back(&s);
        return out;
    }
    std::vector<size_t> picked;
    for (const std::string *key : {&run.name, &run.host, static_cast<const std::string *>(nullptr)}) {
        const auto it = m_byRun.find(key ? *key : std::string());
        if (it != m_byRun.end()) picked.insert(picked.end(), it->second.begin(), it->second.end());
    }
    std::sort(picked.begin(), picked.end());  // by id, as one query ordered by id would give them
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());  // name == host
    for (size_t i : picked) out.push_back(&m_series[i]);
    return out;
}

MetricData MetricData::load(const SessionStore &store, const MetricCatalog &catalog, const RunRow &run, bool singleRun) {
    MetricData d;
    SqliteStatement st(store.db(), "SELECT t_ns, value FROM metric_sample WHERE series_id = ?1 ORDER BY t_ns");
    for (const MetricCatalog::Series *s : catalog.forRun(run, singleRun)) {
        MetricTrack *track = nullptr;  // made at the first sample: a series without samples adds no track
        st.bind(1, s->id);
        while (st.step()) {
            if (!track) {
                auto &list = d.series[s->name];
                // Several sources may hold the same device's series: append to it.
                auto it = std::find_if(list.begin(), list.end(), [&](const MetricTrack &x) { return x.device == s->device; });
                track = it != list.end() ? &*it : &list.emplace_back(MetricTrack{s->name, s->unit, s->device, {}});
            }
            const double v = st.columnDouble(1);
            if (std::isfinite(v)) track->points.push_back({st.columnInt(0) + s->offsetNs, v});
        }
        st.reset();
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

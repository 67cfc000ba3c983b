#include "models/analysis/engine/metric_data.h"

#include "models/store/analysis_input_reader.h"

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
    for (MetricSeriesEntry &e : AnalysisInputReader(store).metricSeries()) {
        Series s;
        s.id = e.id;
        s.name = std::move(e.name);
        s.unit = std::move(e.unit);
        s.device = e.device ? int(*e.device) : -1;
        s.offsetNs = e.offsetNs;
        c.m_byRun[e.run].push_back(c.m_series.size());
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
    const std::vector<const MetricCatalog::Series *> picked = catalog.forRun(run, singleRun);
    std::vector<int64_t> ids;
    for (const MetricCatalog::Series *s : picked) ids.push_back(s->id);
    // The samples come series by series: `track` is series `current`'s, made at its first sample (a
    // series without samples adds no track) and used only until the next series' first.
    MetricTrack *track = nullptr;
    size_t current = picked.size();
    AnalysisInputReader(store).metricSamples(ids, [&](size_t i, int64_t t, double v) {
        const MetricCatalog::Series *s = picked[i];
        if (i != current) {
            current = i;
            auto &list = d.series[s->name];
            // Several sources may hold the same device's series: append to it.
            auto it = std::find_if(list.begin(), list.end(), [&](const MetricTrack &x) { return x.device == s->device; });
            track = it != list.end() ? &*it : &list.emplace_back(MetricTrack{s->name, s->unit, s->device, {}});
        }
        if (std::isfinite(v)) track->points.push_back({t + s->offsetNs, v});
    });
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

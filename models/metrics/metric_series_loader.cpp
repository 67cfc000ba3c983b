#include "models/metrics/metric_series_loader.h"

#include "models/store/sample_reader.h"
#include "models/store/session_reader.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace stepscope {

std::vector<MetricSeries> MetricSeriesLoader::load(const SessionStore &store, const CancelToken &cancel) {
    auto cancelled = [cancel] { return cancel.cancelled(); };
    SessionReader reader(store);
    std::unordered_map<int64_t, int64_t> offsets;
    for (const SourceRow &s : reader.sources()) offsets[s.id] = s.clockOffsetNs;

    std::vector<MetricSeries> out;
    SampleReader samples(store);
    for (const MetricSeriesRow &row : reader.metricSeries()) {
        MetricSeries s;
        s.info.id = row.id;
        s.info.sourceId = row.sourceId;
        s.info.run = row.run;
        s.info.name = row.name;
        s.info.unit = row.unit;
        s.info.device = row.device;
        s.info.periodNs = row.periodNs;
        const int64_t offset = offsets[row.sourceId];
        std::vector<int64_t> t;
        std::vector<float> v;
        t.reserve(size_t(row.samples));
        v.reserve(size_t(row.samples));
        samples.forEachMetricSample(row.id, [&](int64_t tNs, double value) {
            if ((t.size() & 0xfff) == 0 && cancelled()) return false;
            t.push_back(tNs + offset);
            v.push_back(float(value));
            return true;
        });
        if (cancelled()) return {};
        if (t.empty()) continue;
        s.lod = MetricLod(std::move(t), std::move(v));
        out.push_back(std::move(s));
    }
    addCpuSummaries(out);
    return out;
}

void MetricSeriesLoader::addCpuSummaries(std::vector<MetricSeries> &series) {
    // Per run: the per-core series and whether a whole-machine value exists.
    std::map<std::string, std::vector<const MetricSeries *>> cores;
    std::map<std::string, bool> hasMachine;
    for (const MetricSeries &s : series) {
        if (s.info.name != "cpu_util" || s.info.id < 0) continue;
        if (s.info.device) cores[s.info.run].push_back(&s);
        else hasMachine[s.info.run] = true;
    }
    std::vector<MetricSeries> derived;
    int64_t nextId = -1;
    for (const auto &[run, list] : cores) {
        // Sweep all cores' samples in time order; at each distinct instant take every core's latest
        // value (if not older than 3 sampling periods) and reduce to max and mean.
        std::vector<std::pair<int64_t, size_t>> events;  // (time, core#)
        size_t total = 0;
        for (const MetricSeries *s : list) total += size_t(s->lod.size());
        events.reserve(total);
        for (size_t c = 0; c < list.size(); ++c)
            for (int64_t t : list[c]->lod.times()) events.emplace_back(t, c);
        std::sort(events.begin(), events.end());
        std::vector<int64_t> cursor(list.size(), -1);
        std::vector<int64_t> times;
        std::vector<float> maxV, meanV;
        for (size_t e = 0; e < events.size();) {
            const int64_t t = events[e].first;
            for (; e < events.size() && events[e].first == t; ++e) ++cursor[events[e].second];
            float mx = 0;
            double sum = 0;
            int n = 0;
            for (size_t c = 0; c < list.size(); ++c) {
                if (cursor[c] < 0) continue;
                const int64_t age = t - list[c]->lod.times()[size_t(cursor[c])];
                const int64_t period = list[c]->info.periodNs;
                if (period > 0 && age > 3 * period) continue;
                const float v = list[c]->lod.values()[size_t(cursor[c])];
                mx = n == 0 ? v : std::max(mx, v);
                sum += double(v);
                ++n;
            }
            if (n == 0) continue;
            times.push_back(t);
            maxV.push_back(mx);
            meanV.push_back(float(sum / n));
        }
        MetricSeriesInfo info = list.front()->info;
        info.device.reset();
        info.sourceId = list.front()->info.sourceId;
        info.id = nextId--;
        info.label = "busiest core";
        derived.push_back({info, MetricLod(times, std::move(maxV))});
        if (!hasMachine[run]) {
            info.id = nextId--;
            info.label = "mean of " + std::to_string(list.size()) + " cores";
            derived.push_back({info, MetricLod(std::move(times), std::move(meanV))});
        }
    }
    for (MetricSeries &d : derived) series.push_back(std::move(d));
}

} // namespace stepscope

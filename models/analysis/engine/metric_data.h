#pragma once
// MetricData owns the instance metrics that belong to one run (series whose `run` is the run's name or
// host, or session-wide series with an empty run; all series when the session holds a single run),
// with absolute times (the source's clock offset applied), grouped by canonical series name
// (gpu_util, cpu_util, io_wait, net_in, ...). Read by the bottleneck decision and the SageMaker rules.

#include "models/store/session_reader.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope {

struct MetricPoint {
    int64_t t = 0;
    double v = 0;
};

struct MetricTrack {
    std::string name, unit;
    int device = -1;  // GPU or core index; -1 whole machine
    std::vector<MetricPoint> points;  // by time
};

// Every metric series of the session (not their samples), read in one pass and indexed by the run
// name they were recorded for, so that picking a run's series costs a lookup instead of a scan of
// metric_series per run. ReportBuilder loads it once for all runs.
class MetricCatalog {
public:
    struct Series {
        int64_t id = 0;
        std::string name, unit;
        int device = -1;
        int64_t offsetNs = 0;  // the source's clock offset
    };
    static MetricCatalog load(const SessionStore &store);
    // The series of `run` (its name or host, or session-wide: empty run), or all when singleRun; by id.
    std::vector<const Series *> forRun(const RunRow &run, bool singleRun) const;
    size_t size() const { return m_series.size(); }

private:
    std::vector<Series> m_series;  // by id
    std::unordered_map<std::string, std::vector<size_t>> m_byRun;
};

struct MetricData {
    std::map<std::string, std::vector<MetricTrack>> series;  // canonical name -> one track per device

    bool has(const std::string &name) const { return series.count(name) && !series.at(name).empty(); }
    const std::vector<MetricTrack> &tracks(const std::string &name) const;
    // Values of all tracks of `name` with t in [lo, hi] (all values when lo >= hi).
    std::vector<double> values(const std::string &name, int64_t lo = 0, int64_t hi = 0) const;

    // Samples of the run's series (MetricCatalog::forRun), read through the (series, time) index.
    static MetricData load(const SessionStore &store, const MetricCatalog &catalog, const RunRow &run, bool singleRun);
    static MetricData load(const SessionStore &store, const RunRow &run, bool singleRun) {
        return load(store, MetricCatalog::load(store), run, singleRun);
    }
};

// Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none.
double percentile(std::vector<double> values, double p);

} // namespace stepscope

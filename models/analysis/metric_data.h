#pragma once
// MetricData owns the instance metrics that belong to one run (series whose `run` is the run's name or
// host, or session-wide series with an empty run; all series when the session holds a single run),
// with absolute times (the source's clock offset applied), grouped by canonical series name
// (gpu_util, cpu_util, io_wait, net_in, ...). Read by the bottleneck decision and the SageMaker rules.

#include "models/store/session_reader.h"

#include <map>
#include <string>
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

struct MetricData {
    std::map<std::string, std::vector<MetricTrack>> series;  // canonical name -> one track per device

    bool has(const std::string &name) const { return series.count(name) && !series.at(name).empty(); }
    const std::vector<MetricTrack> &tracks(const std::string &name) const;
    // Values of all tracks of `name` with t in [lo, hi] (all values when lo >= hi).
    std::vector<double> values(const std::string &name, int64_t lo = 0, int64_t hi = 0) const;

    static MetricData load(const SessionStore &store, const RunRow &run, bool singleRun);
};

// Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none.
double percentile(std::vector<double> values, double p);

} // namespace stepscope

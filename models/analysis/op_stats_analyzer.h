#pragma once
// OpStatsAnalyzer aggregates the run's events per name and device inside a time window (a step range):
// count, total, self (time not covered by nested children), mean, min and max, for host events
// (device -1) and GPU ops (device = GPU index) separately. Ignored events (step markers, GPU-side
// annotations) are left out. Called by RunAnalyzer; the op stats table model reads the result.

#include "models/analysis/trace_data.h"

#include <string>
#include <vector>

namespace stepscope {

struct OpStat {
    std::string name;
    int device = -1;  // -1: host
    int64_t count = 0, totalNs = 0, selfNs = 0, minNs = 0, maxNs = 0;
    double meanNs() const { return count ? double(totalNs) / double(count) : 0.0; }
    bool host() const { return device < 0; }
};

class OpStatsAnalyzer {
public:
    // Events that start inside [start, end). Sorted by total time, longest first.
    static std::vector<OpStat> analyze(const TraceData &trace, const std::vector<int8_t> &types, int64_t start, int64_t end);
};

} // namespace stepscope

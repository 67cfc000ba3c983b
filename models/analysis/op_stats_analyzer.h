#pragma once
// OpStatsAnalyzer aggregates the run's events per name and device inside a time window (a step range):
// count, total, self (time not covered by nested children), mean, min and max, for host events
// (device -1) and GPU ops (device = GPU index) separately. Ignored events (step markers, GPU-side
// annotations) are left out. For GPU ops, addKernelDetails() adds the launch configuration recorded in
// the kernels' args (Kineto: grid, block, registers per thread, shared memory): per op the most common
// value when it holds more than half of the occurrences that record it, else "varies". Called by
// RunAnalyzer; the op stats table model reads the result.

#include "models/analysis/trace_data.h"

#include <string>
#include <vector>

namespace stepscope {

// Values as compact JSON text ("[128,1,1]", "32"), "varies", or empty when not recorded.
struct KernelDetails {
    std::string grid, block, registers, sharedMemory;
    bool empty() const { return grid.empty() && block.empty() && registers.empty() && sharedMemory.empty(); }
};

struct OpStat {
    std::string name;
    int32_t nameId = -1;
    int device = -1;  // -1: host
    int64_t count = 0, totalNs = 0, selfNs = 0, minNs = 0, maxNs = 0;
    KernelDetails kernel;  // GPU ops only
    double meanNs() const { return count ? double(totalNs) / double(count) : 0.0; }
    bool host() const { return device < 0; }
};

class OpStatsAnalyzer {
public:
    // Events that start inside [start, end). Sorted by total time, longest first.
    static std::vector<OpStat> analyze(const TraceData &trace, const std::vector<int8_t> &types, int64_t start, int64_t end);
    // Reads the args of the run's GPU slices that start inside [start, end) (absolute ns) and fills
    // OpStat::kernel of the GPU ops in `ops`.
    static void addKernelDetails(std::vector<OpStat> &ops, const TraceData &trace, const SessionStore &store,
                                 const RunRow &run, int64_t start, int64_t end);
};

} // namespace stepscope

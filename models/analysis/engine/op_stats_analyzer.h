#pragma once
// OpStatsAnalyzer aggregates the run's events per name and device inside a time window (a step range):
// count, total, self (time not covered by nested children), mean, min and max, for host events
// (device -1) and GPU ops (device = GPU index) separately. Ignored events (step markers, GPU-side
// annotations) are left out. For GPU ops, addKernelDetails() adds the launch configuration recorded in
// the kernels' args (Kineto: grid, block, registers per thread, shared memory): per op the most common
// value when it holds more than half of the occurrences that record it, else "varies". Called by
// RunAnalyzer; the op stats table model reads the result.

#include "models/analysis/engine/trace_data.h"

#include <optional>
#include <string>
#include <vector>

namespace stepscope {

// Values as compact JSON text ("[128,1,1]", "32"), "varies", or empty when not recorded.
struct KernelDetails {
    std::string grid, block, registers, sharedMemory;
    bool empty() const { return grid.empty() && block.empty() && registers.empty() && sharedMemory.empty(); }
};

// What an op's GPU work achieved against the device's peak (OpEfficiencyAnalyzer; issue #33, item 2).
struct OpEfficiency {
    double flops = 0, bytes = 0;  // over the analysed steps; flops 0 for memory-bound ops
    int64_t timeNs = 0;           // the GPU time those figures were done in
    std::string dtype;            // the peak's dtype (tf32 when fp32 work ran on TF32 kernels); empty: unknown
    std::string op, shapes;       // the framework op the figures come from, and its recorded input shapes
    std::optional<double> peakTflops, peakGbps, pctOfPeak;  // absent for unknown devices or dtypes
    std::string bound;            // compute or memory (arithmetic intensity against the ridge point)
    double achievedTflops() const { return timeNs > 0 ? flops / double(timeNs) / 1e3 : 0.0; }
    double achievedGbps() const { return timeNs > 0 ? bytes / double(timeNs) : 0.0; }
    double intensity() const { return bytes > 0 ? flops / bytes : 0.0; }
};

struct OpStat {
    std::string name;
    int32_t nameId = -1;
    int device = -1;  // -1: host
    int64_t count = 0, totalNs = 0, selfNs = 0, minNs = 0, maxNs = 0;
    KernelDetails kernel;  // GPU ops only
    std::optional<OpEfficiency> efficiency;  // where the recorded shapes (or XLA) give its cost
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

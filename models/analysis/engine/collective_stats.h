#pragma once
// CollectiveStatsAnalyzer: per kind of collective (all_reduce, all_gather, reduce_scatter, broadcast,
// reduce, all_to_all, send_recv) the calls inside the analysed steps, the bytes they moved, their GPU
// time, the algorithm and bus bandwidth by NCCL's formulas (nccl-tests' PERFORMANCE.md: algbw = bytes /
// time; busbw = algbw * 2(n-1)/n for all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all,
// 1 for broadcast, reduce and send/recv; bytes of all-gather and reduce-scatter are the whole gathered
// buffer), with n the group size; and the exposed time (not overlapped with compute kernels on the
// same GPU). The kind, size, dtype and group size come from the kernel's args (PyTorch 2.x: "Collective
// name", "In msg nelems", "Out msg nelems", "dtype", "Group size"), else from the record_param_comms op
// around its launch, else the kind from the NCCL kernel's name (no size: no bandwidth). Issue #33, item 3.
// Called by RunAnalyzer; the slow_collective finding compares the bus bandwidth with the device's
// NVLink (gpu_peaks.tsv) for groups of up to 8 GPUs.

#include "models/analysis/engine/trace_data.h"

#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct RunAnalysis;

struct CollectiveStat {
    std::string name;     // all_reduce, all_gather, ...
    int64_t count = 0;
    int64_t sized = 0;    // calls whose size is known (the bandwidths are over these)
    double bytes = 0;     // over the sized calls
    int64_t timeNs = 0, sizedTimeNs = 0, exposedNs = 0;
    std::optional<int64_t> groupSize;  // the most common one
    std::optional<double> algbwGbps, busbwGbps;
};

class CollectiveStatsAnalyzer {
public:
    // GPU slices of type `collectiveType` starting in [start, end); `computeType` the device-compute type.
    static std::vector<CollectiveStat> analyze(const TraceData &trace, const std::vector<int8_t> &types, int collectiveType,
                                               int computeType, const SessionStore &store, const RunRow &run, int64_t start,
                                               int64_t end);
    // The slow_collective finding (thresholds in its record of resources/rules/finding_rules.tsv).
    static void evaluate(RunAnalysis &ra, const std::string &deviceName);
    // The bus bandwidth factor for a kind and group size (0 when n < 2 for the reducing kinds).
    static double busFactor(const std::string &kind, int64_t n);
    // all_reduce, all_gather, ... from PyTorch's "Collective name" (allreduce, _allgather_base, ...) or
    // an NCCL kernel name (ncclDevKernel_AllReduce_Sum_f32_RING_LL); empty when neither says.
    static std::string kindOf(std::string_view text);
};

} // namespace stepscope

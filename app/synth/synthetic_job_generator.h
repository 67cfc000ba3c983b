#pragma once
// SyntheticJobGenerator writes a data-parallel job: one Kineto trace per rank (distributedInfo
// {rank, world_size}, the rank in the file name), all ranks simulated step by step together so that
// the gradient all-reduce couples them: every rank's NCCL kernel of each all-reduce starts when that
// rank launches it and runs until the last rank has joined (the first one of a step absorbs a late rank). An optional straggler rank is late each
// step for a chosen cause (its DataLoader, host work, a checkpoint save), so the other ranks spin in
// their first all-reduce for about that long. Callers: stepscope-synth --ranks, tests, benchmarks.
// Deterministic: the same options give the same bytes.

#include "app/synth/synthetic_profile_generator.h"

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::synth {

struct SyntheticJobOptions {
    SyntheticProfileOptions rank;   // the shape of every rank's trace (gpus must be 1)
    int ranks = 2;                  // world size, 2..1024
    int stragglerRank = -1;         // -1: a balanced job
    LateCause stragglerCause = LateCause::Input;
    int64_t stragglerNs = 0;        // how late the straggler is each step
    bool distributedInfo = true;    // false: the rank is only in the file name (rank-N.pt.trace.json.gz)
    std::string filePrefix = "rank-";
};

struct SyntheticJobStats {
    std::vector<std::filesystem::path> files;  // by rank
    int64_t events = 0;                         // over all ranks
    int64_t steps = 0;
    int64_t meanWaitNs = 0;  // mean per step and waiting rank of the time spent waiting in the first all-reduce
};

// Throws std::invalid_argument for bad options, std::runtime_error when a file cannot be written.
SyntheticJobStats generateJob(const SyntheticJobOptions &options, const std::filesystem::path &outDir);

} // namespace stepscope::synth

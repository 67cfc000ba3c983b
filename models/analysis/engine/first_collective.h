#pragma once
// FirstCollective: per step, the step's first collective kernel (the all-reduce the ranks of a
// data-parallel job meet in) — where it starts and how long it runs. A rank that arrives on time
// spins in it until the last rank joins, so across ranks its duration measures each rank's wait
// without trusting the hosts' clocks to agree. Computed by RunAnalyzer, read by JobAnalyzer.

#include "models/analysis/engine/step_timeline.h"

#include <cstdint>
#include <vector>

namespace stepscope {

struct StepCollective {
    int64_t startNs = -1;  // absolute; -1: the step has no collective kernel
    int64_t durNs = 0;
};

// `types`: the slices' types under the stepscope preset; `collectiveType` that preset's index of
// `collective` (-1: none). One pass over the slices, a binary search over the steps each.
std::vector<StepCollective> firstCollectives(const TraceData &trace, const std::vector<int8_t> &types,
                                             int collectiveType, const StepTimeline &steps);

} // namespace stepscope

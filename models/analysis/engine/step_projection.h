#pragma once
// StepProjector answers "what is fixing this cause worth": the step times of a run if one cause's
// time (one or more step-time categories, e.g. input) were gone. Two methods:
//   replay  — where the trace links host launches to GPU work (correlation ids), the run is re-timed
//             as one timeline along its dependencies: the launching host threads run without the
//             cause's slices (and without the GPU work and the syncs inside them), each GPU op starts
//             at max(its new launch time, the new end of the op before it on its stream) plus the
//             queueing delay it had, the syncs that stay end no earlier than the re-timed GPU work
//             they waited for, and each step ends at the later of its host end and its last GPU op.
//             The host may run ahead into the next step while the GPU finishes this one, so removing
//             a phase that waited on the device (.item() in a callback, a checkpoint's copies) gives
//             the step the GPU's pace; it never makes a step shorter than the GPU's own work.
//   exposed — otherwise (device-side causes, untraced time, traces without launch links): the step
//             minus the cause's exposed time, but never less than the union of all other activity
//             in the step (work the cause hid becomes visible).
// Periodic causes (a checkpoint every K steps) act on the steps they occur in; the mean covers them.
// ProjectionRules (projection_rules.h) picks the causes and attaches the results to the findings.

#include "models/analysis/engine/category.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/analysis/engine/trace_data.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace stepscope {

class StepProjector {
public:
    StepProjector(const RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types);

    // Projected duration of every step of ra.steps with `causes` removed; `method` says which method
    // was used ("replay" or "exposed").
    std::vector<int64_t> project(const std::vector<Category> &causes, std::string &method) const;

    // Exposed method only (also the fallback of project()).
    std::vector<int64_t> projectExposed(const std::vector<Category> &causes) const;

private:
    struct Launch {
        int64_t hostStart = 0;
        int32_t thread = -1;  // index into m_launchThreads
    };
    std::vector<int64_t> projectReplay(const std::vector<int> &causeTypes, bool causeOwnsItsGpuWork) const;
    // Share of the causes' activity inside the steps that lies on launching host threads.
    double launchThreadShare(const std::vector<int> &causeTypes) const;

    const RunAnalysis &m_ra;
    const TraceData &m_trace;
    const std::vector<int8_t> &m_types;
    std::vector<int32_t> m_launchThreads;            // trace track indexes of host threads that launch GPU work
    std::vector<int32_t> m_threadOfTrack;            // track index -> index into m_launchThreads, or -1
    std::unordered_map<int64_t, Launch> m_launches;  // correlation id -> the launching host call
    std::unordered_set<int32_t> m_syncNames;         // string ids of blocking sync calls
};

} // namespace stepscope

#pragma once
// CriticalPathAnalyzer finds, per step, the longest chain of dependent work (issue #33; HTA's critical
// path, built on time points): every host thread is a chain of segments (between two slice boundaries,
// charged to the highest-priority type open there, as the breakdown charges it), every GPU stream a
// chain of its kernels and copies; a launch call's end (or start, when the kernel began inside the
// call) precedes its kernel's start (correlation id); the GPU work that ended last inside a call that
// waits for the device (a sync, a blocking or waited copy, a blocking memset) precedes that call's end.
// Edges carry the time of the work they stand for; time a thread only waits (inside such a call),
// untraced time (no typed slice open: a ProfilerStep# marker only) and the gaps between GPU work carry
// none. The longest path is what bounds the step: its length equals the step time when the trace
// covers the step, and less tells how much of the step no trace event explains. Called by RunAnalyzer.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/step_timeline.h"
#include "models/analysis/engine/trace_data.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stepscope {

// One stretch of the path on one track: merged edges of one type (absolute ns).
struct CriticalPathSegment {
    int64_t start = 0, end = 0;
    int64_t trackId = 0;  // the session's track id
    int32_t type = -1;    // preset type index
};

struct NamedDuration {
    std::string name;
    int64_t ns = 0;
};

struct StepCriticalPath {
    int64_t lengthNs = 0;
    std::vector<int64_t> perTypeNs;  // [preset type]
    std::vector<CriticalPathSegment> segments;  // in time order
};

struct CriticalPath {
    std::vector<StepCriticalPath> steps;  // per step of the StepTimeline
    std::vector<int64_t> totalPerTypeNs;  // [preset type] over all steps
    int64_t totalLengthNs = 0;
    // The events that lie longest on the path, by name, longest first, at most 10.
    std::vector<NamedDuration> topNames;
    double meanLengthMs() const { return steps.empty() ? 0.0 : double(totalLengthNs) / 1e6 / double(steps.size()); }
};

class CriticalPathAnalyzer {
public:
    static CriticalPath analyze(const TraceData &trace, const std::vector<int8_t> &types, const Preset &preset,
                                const StepTimeline &steps);
};

} // namespace stepscope

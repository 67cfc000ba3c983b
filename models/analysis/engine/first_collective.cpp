#include "models/analysis/engine/first_collective.h"

#include <algorithm>

namespace stepscope {

std::vector<StepCollective> firstCollectives(const TraceData &trace, const std::vector<int8_t> &types,
                                             int collectiveType, const StepTimeline &steps) {
    std::vector<StepCollective> out(steps.steps.size());
    if (collectiveType < 0 || steps.steps.empty()) return out;
    for (size_t i = 0; i < trace.slices.size() && i < types.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (!s.gpu || types[i] != collectiveType) continue;
        // The step whose span holds the kernel's start (steps are sorted and disjoint).
        const auto it = std::upper_bound(steps.steps.begin(), steps.steps.end(), s.start,
                                         [](int64_t t, const AnalysisStep &st) { return t < st.start; });
        if (it == steps.steps.begin()) continue;
        const AnalysisStep &step = *(it - 1);
        if (s.start >= step.end) continue;
        StepCollective &c = out[size_t(it - 1 - steps.steps.begin())];
        if (c.startNs < 0 || s.start < c.startNs) c = {s.start, s.dur()};
    }
    return out;
}

} // namespace stepscope

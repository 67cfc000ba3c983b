#include "models/analysis/engine/step_breakdown_analyzer.h"

#include <algorithm>

namespace stepscope {

int Breakdown::typeIndex(std::string_view t) const {
    for (size_t i = 0; i < types.size(); ++i)
        if (types[i] == t) return int(i);
    return -1;
}

std::vector<std::pair<std::string, int64_t>> Breakdown::byLabel(const std::vector<int64_t> &perType) const {
    std::vector<std::pair<std::string, int64_t>> out;
    for (size_t t = 0; t < types.size() && t < perType.size(); ++t) {
        auto it = std::find_if(out.begin(), out.end(), [&](const auto &p) { return p.first == labels[t]; });
        if (it == out.end()) out.emplace_back(labels[t], perType[t]);
        else it->second += perType[t];
    }
    return out;
}

Breakdown StepBreakdownAnalyzer::analyze(const TraceData &trace, const std::vector<int8_t> &types, const Preset &preset,
                                         const StepTimeline &steps) {
    Breakdown b;
    b.preset = preset.name;
    b.types = preset.types;
    b.labels = preset.labels;
    const size_t nTypes = preset.types.size();
    const IntervalList windows = steps.windows();
    b.unions.assign(nTypes, {});
    b.exclusive.assign(nTypes, {});
    b.totalNs.assign(nTypes, 0);
    b.perStepNs.assign(steps.steps.size(), std::vector<int64_t>(nTypes, 0));
    b.stepTotalNs = steps.totalNs();
    if (windows.empty()) return b;
    const int64_t lo = windows.front().start, hi = windows.back().end;

    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const int t = types[i];
        if (t < 0) continue;
        const TraceSlice &s = trace.slices[i];
        if (s.end <= lo || s.start >= hi || s.end <= s.start) continue;
        b.unions[size_t(t)].push_back({std::max(s.start, lo), std::min(s.end, hi)});
    }
    IntervalList claimed;
    for (size_t t = 0; t < nTypes; ++t) {
        intervals::normalize(b.unions[t]);
        b.unions[t] = intervals::intersect(b.unions[t], windows);
        if (int(t) == preset.remainder) continue;
        b.exclusive[t] = intervals::subtract(b.unions[t], claimed);
        claimed = intervals::unite(claimed, b.exclusive[t]);
    }
    // The remainder: its own matched activity (in priority order it is last) plus whatever is unclaimed.
    const size_t r = size_t(preset.remainder);
    b.exclusive[r] = intervals::subtract(windows, claimed);
    for (size_t t = 0; t < nTypes; ++t) {
        const std::vector<int64_t> per = intervals::overlapPerWindow(b.exclusive[t], windows);
        for (size_t k = 0; k < per.size(); ++k) {
            b.perStepNs[k][t] = per[k];
            b.totalNs[t] += per[k];
        }
    }
    return b;
}

} // namespace stepscope

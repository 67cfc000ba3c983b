#pragma once
// StepBreakdownAnalyzer charges every nanosecond of every step to exactly one type of a preset: the
// intervals of each type are merged (union over all host threads and GPU streams of the run), then the
// types claim step time in priority order, each taking only what higher types left (exposed time);
// unclaimed step time goes to the preset's remainder type, so a step's types sum to its duration.
// This equals a sweep that picks the highest-priority active type at each instant. Called by RunAnalyzer
// for the stepscope preset (whose exclusive intervals the gap analysis reuses) and any extra preset.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/interval_set.h"
#include "models/analysis/engine/step_timeline.h"
#include "models/analysis/engine/trace_data.h"

#include <vector>

namespace stepscope {

struct Breakdown {
    std::string preset;
    std::vector<std::string> types, labels;        // as in the preset
    std::vector<std::vector<int64_t>> perStepNs;   // [step][type]
    std::vector<int64_t> totalNs;                  // [type] over all steps
    std::vector<IntervalList> unions;              // [type] all its activity inside the steps
    std::vector<IntervalList> exclusive;           // [type] the time it was charged
    int64_t stepTotalNs = 0;

    int typeIndex(std::string_view t) const;
    double pct(int type) const { return stepTotalNs > 0 ? 100.0 * double(totalNs[size_t(type)]) / double(stepTotalNs) : 0; }
    // Per display label (types sharing a label summed), in first-appearance order.
    std::vector<std::pair<std::string, int64_t>> byLabel(const std::vector<int64_t> &perType) const;
};

class StepBreakdownAnalyzer {
public:
    static Breakdown analyze(const TraceData &trace, const std::vector<int8_t> &types, const Preset &preset,
                             const StepTimeline &steps);
};

} // namespace stepscope

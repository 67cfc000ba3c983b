#pragma once
// StepTimeline owns the steps the analysis works on: the source's step markers (the session's `step`
// table) moved onto device time the way the PyTorch profiler plugin does — each GPU op joins the step
// whose host span contains its launch call, and a step becomes
// [max(previous step end, host start), max(host end, last GPU op end of the step)] — or, when the
// trace has no markers, one step over the whole trace. Built by RunAnalyzer.

#include "models/analysis/interval_set.h"
#include "models/analysis/trace_data.h"

#include <cstdint>
#include <vector>

namespace stepscope {

struct AnalysisStep {
    int64_t step = 0;
    int64_t start = 0, end = 0;          // device-time span (absolute ns)
    int64_t hostStart = 0, hostEnd = 0;  // the marker's span
    int64_t gpuOps = 0;                  // GPU ops launched inside the host span
    int64_t dur() const { return end - start; }
};

struct StepTimeline {
    std::vector<AnalysisStep> steps;
    bool fromMarkers = true;

    // Moves marker steps onto device time (or makes one whole-trace step when `markers` is empty).
    static StepTimeline build(const std::vector<StepRow> &markers, const TraceData &trace);
    // Keeps steps A..B (inclusive, by step number).
    void restrict(std::optional<int64_t> first, std::optional<int64_t> last);
    IntervalList windows() const;
    int64_t totalNs() const;
};

} // namespace stepscope

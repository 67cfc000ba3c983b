#pragma once
// StepTimeline owns the steps the analysis works on: the source's step markers (the session's `step`
// table) moved onto device time the way the PyTorch profiler plugin does — each GPU op joins the step
// whose host span contains its launch call, and a step becomes
// [max(previous step end, host start), max(host end, last GPU op end of the step)]. The importer
// decides where a run's steps come from (run.step_source: markers, or a TensorFlow 2 run's executions
// of its training function); a run without steps is one whole-trace step. `source` says which. Built
// by RunAnalyzer.

#include "models/analysis/engine/interval_set.h"
#include "models/analysis/engine/trace_data.h"
#include "models/store/session_enums.h"

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
    StepSource source = StepSource::Markers;

    // False only when the whole trace stands for one step (no markers, no training function).
    bool hasSteps() const { return source != StepSource::WholeTrace; }
    // Moves the stored steps onto device time; without steps, one whole-trace step. `stored` is the
    // run's step_source; none (a session imported before it was recorded): the training function's
    // executions are looked for in the trace, as the importer does today.
    static StepTimeline build(const std::vector<StepRow> &stored, std::optional<StepSource> source,
                              const TraceData &trace);
    // Keeps steps A..B (inclusive, by step number).
    void restrict(std::optional<int64_t> first, std::optional<int64_t> last);
    IntervalList windows() const;
    int64_t totalNs() const;
    // Mean time between one step's end and the next one's start (0 when steps abut, as most do; the
    // eager wrapper around TensorFlow's FunctionRun steps otherwise).
    double meanBetweenStepsNs() const;
};

} // namespace stepscope

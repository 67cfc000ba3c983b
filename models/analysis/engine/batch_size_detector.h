#pragma once
// BatchSizeDetector guesses the batch size of a run from the input shapes recorded with the trace
// (PyTorch record_shapes: "Input Dims" in the args of cpu ops): in each of the first analysed steps,
// the leading dimension of the first input of the first conv / linear / embedding op (aten::conv2d,
// aten::linear, aten::embedding, …) on a host thread inside the step's host span; when a step has
// none, that of the first aten::to / aten::_to_copy / aten::copy_ of an input of rank >= 2 (the batch
// moved to the device). The most common value over those steps wins. Used by RunAnalyzer when no
// batch size was given (CLI --batch-size, the session's setting).

#include "models/analysis/engine/step_timeline.h"
#include "models/analysis/engine/trace_data.h"

#include <optional>
#include <string>

namespace stepscope {

struct DetectedBatchSize {
    int64_t value = 0;
    std::string evidence;  // e.g. "first input of aten::conv2d [64,3,224,224] in 3 of 3 steps"
};

class BatchSizeDetector {
public:
    static std::optional<DetectedBatchSize> detect(const TraceData &trace, const SessionStore &store, const RunRow &run,
                                                   const StepTimeline &steps);
};

} // namespace stepscope

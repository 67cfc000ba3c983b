#pragma once
// TfTrainFunctionSteps finds the steps of a TensorFlow 2 run that carries no step markers (a Keras
// `fit` profiled without `tf.profiler.experimental.Trace(step_num=…)`): each execution of the
// training function on the host — `EagerExecute: __inference_train_function_N`, its FunctionRun or
// the Python `train_function` span — is one step. Only the outermost such span counts (the function
// shows up nested in itself and again on the thread that runs it), and a span that starts inside an
// earlier one is the same execution. A step runs from the end of the previous execution to the end of
// its own, so the input wait before it (`IteratorGetNext*` outside the function) belongs to it; the
// first step starts at the last IteratorGetNext* that ends before it. Called by StepTimeline.

#include "models/analysis/trace_data.h"

#include <string_view>
#include <vector>

namespace stepscope {

class TfTrainFunctionSteps {
public:
    // Steps numbered 0, 1, … in time order (absolute ns); empty when the trace has no such span.
    static std::vector<StepRow> find(const TraceData &trace);
    static bool isTrainFunctionName(std::string_view name);
};

} // namespace stepscope

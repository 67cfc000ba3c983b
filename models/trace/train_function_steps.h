#pragma once
// TrainFunctionSteps finds the steps of a TensorFlow 2 run that carries no step markers (a Keras `fit`
// profiled without `tf.profiler.experimental.Trace(step_num=…)`): each execution of the training
// function on the host — `EagerExecute: __inference_train_function_N` or the Python `train_function`
// span — is one step. A span that starts inside an earlier one is the same execution (the function
// shows up nested in itself and again on the thread that runs it).
// As TensorFlow's profiler groups it (issue #32): where the execution holds the executor's run of the
// function (`FunctionRun`, the root TensorFlow groups a step under), the step is that run — the eager
// wrapper's own time around it lies between steps, and input waited for inside the function is in
// the step. Without FunctionRun events a step runs from the end of the previous execution to the end
// of its own, so the input wait before it (`IteratorGetNext*` outside the function) belongs to it; the
// first step starts at the last IteratorGetNext* that ends before it. Importers feed it the host spans whose names have a role
// (Chrome/Kineto/TF trace JSON and XPlane alike) and write its steps when the run has no markers; the
// analysis uses it on sessions imported before the step table held these steps.

#include "models/store/session_reader.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope {

class TrainFunctionSteps {
public:
    enum class Role { None, Execution, InputWait, FunctionRun };
    static Role roleOf(std::string_view name);

    void add(Role role, int64_t start, int64_t end);
    bool empty() const { return m_executions.empty(); }
    // Steps numbered 0, 1, … in time order, in the times given to add(); empty without executions.
    std::vector<StepRow> steps() const;

private:
    std::vector<std::pair<int64_t, int64_t>> m_executions, m_inputWaits, m_functionRuns;
};

} // namespace stepscope

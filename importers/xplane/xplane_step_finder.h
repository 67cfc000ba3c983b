#pragma once
// XPlaneStepFinder owns the step candidates of one XSpace and decides which marker defines the
// steps, by priority: (1) host events that carry a `step_num`/`iter_num` stat or are named
// `ProfilerStep#N` (TF/Keras step roots, PyTorch/XLA); (2) the device "Steps" line the profiler's
// post-processing adds (step number from its stats or its name); (3) host step roots of a
// `group_id` (`TraceContext`, `train…`, or `_r` events). Per step number the earliest marker wins
// (the longer one on a tie), so a nested re-annotation of the same step does not replace it.
// Fed by XPlaneLineWriter; written by XPlaneImporter once every plane is read.

#include "models/store/session_writer.h"
#include "models/store/train_function_steps.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace stepscope {

class XPlaneStepFinder {
public:
    enum class Source { HostStepMarker = 0, DeviceStepsLine = 1, GroupRoot = 2 };

    void add(Source source, int64_t step, int64_t startNs, int64_t durNs);
    // A host event: kept when its name is a training function's execution or an input wait.
    void addTrainFunctionSpan(std::string_view name, int64_t startNs, int64_t durNs);
    // Writes the steps of the best source and the run's step source; returns how many, and what they
    // came from in `from`.
    int64_t write(SessionWriter &writer, int64_t runId, std::string &from) const;

    static bool isGroupRootName(std::string_view name);
    // N of "ProfilerStep#N", else -1.
    static int64_t profilerStepNumber(std::string_view name);

private:
    struct Span {
        int64_t start = 0;
        int64_t dur = 0;
    };
    std::map<int64_t, Span> m_steps[3];
    TrainFunctionSteps m_trainFunction;
};

} // namespace stepscope

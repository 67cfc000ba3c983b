#pragma once
// TypeRefinement corrects what the name rules of a preset cannot know from one event alone (issue #32):
//  - in a trace with no GPU work, nothing is a kernel launch: host events the rules call kernel_launch
//    (TensorFlow's ExecutorState::Process, cpu_ops) are host compute, the preset's default host type;
//  - a blocking copy call (cudaMemcpy, cuMemcpyHtoD, hipMemcpy, not the *Async ones) is the copy it
//    made: the type of the GPU copy with its correlation id (h2d, d2h, d2d), else what the rules said.
// Applied to the types TraceData::classify returns, for every preset.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/trace_data.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace stepscope {

class TypeRefinement {
public:
    static void apply(const TraceData &trace, const Preset &preset, std::vector<int8_t> &types);
    // True for the names of copy calls that block the host until the copy is done.
    static bool isBlockingCopyCall(std::string_view name);
    // True for blocking memsets (cudaMemset, not cudaMemsetAsync) and for calls that wait for the
    // device (cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cuCtxSynchronize, hip*).
    static bool isBlockingMemset(std::string_view name);
    static bool isSyncApiCall(std::string_view name);
};

} // namespace stepscope

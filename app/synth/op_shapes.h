#pragma once
// OpShapes: what PyTorch's record_shapes=True writes into a framework op's args ("Input Dims", "Input
// type", "Concrete Inputs"), for the generator's forward ops (convolution, batch norm, ReLU, residual
// add, linear). The shapes are chosen once per op, from the op's nominal kernel time, so that the op
// runs at a known share of the H100's peak (its roof): the truth the op-efficiency analysis must
// recover (issue #33). Backward and optimizer ops carry no shapes here.

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::synth {

class OpShapes {
public:
    // The efficiency each kind of op is generated at: a share of the roof.
    static constexpr double kConvTensorCorePct = 55;  // implicit-GEMM convolution on TF32 tensor cores
    static constexpr double kConvDirectPct = 40;      // direct convolution on the FP32 CUDA cores
    static constexpr double kMemoryPct = 70;          // batch norm, ReLU, add: of the memory bandwidth
    static constexpr double kLinearPct = 45;          // an FP32 SGEMM on the CUDA cores
    // The slow convolution (--slow-conv): 11x11, fp32, a direct kernel, this input and weight.
    static constexpr int64_t kSlowConvBatch = 32, kSlowConvChannels = 32, kSlowConvSize = 56, kSlowConvKernel = 11;
    static double slowConvFlops();

    // The args members (no braces) for `op` (the chain's outer op name) whose kernels take `kernelNs`
    // in all, nominally; `tensorCores` when its kernel runs on TF32 tensor cores. Empty when the op
    // gets no shapes.
    static std::string argsFor(std::string_view op, double kernelNs, bool tensorCores);
    static std::string slowConvArgs();
};

} // namespace stepscope::synth

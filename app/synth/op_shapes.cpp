#include "app/synth/op_shapes.h"

#include <algorithm>
#include <cmath>

namespace stepscope::synth {

namespace {

// The generated trace's device: an H100 SXM (resources/rules/gpu_peaks.tsv).
constexpr double kTf32Flops = 494.5e12, kFp32Flops = 67e12, kBytesPerS = 3350e9;
constexpr int64_t kBatch = 128, kSize = 28;  // activations [128, C, 28, 28], fp32

std::string dims4(int64_t a, int64_t b, int64_t c, int64_t d) {
    return "[" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c) + ", " + std::to_string(d) + "]";
}

std::string conv(int64_t n, int64_t c, int64_t size, int64_t k, int64_t kernel, int64_t pad) {
    const std::string p = std::to_string(pad);
    return "\"Input Dims\": [" + dims4(n, c, size, size) + ", " + dims4(k, c, kernel, kernel) + ", [" + std::to_string(k) +
           "], [], [], [], []], \"Input type\": [\"float\", \"float\", \"float\", \"ScalarList\", \"ScalarList\", "
           "\"ScalarList\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"\", \"\", \"[1, 1]\", \"[" + p + ", " + p +
           "]\", \"[1, 1]\", \"1\"]";
}

} // namespace

double OpShapes::slowConvFlops() {
    const double out = double(kSlowConvSize) * double(kSlowConvSize);  // padded to keep the size
    return 2.0 * double(kSlowConvBatch) * double(kSlowConvChannels) * out * double(kSlowConvChannels) * double(kSlowConvKernel * kSlowConvKernel);
}

std::string OpShapes::slowConvArgs() {
    return conv(kSlowConvBatch, kSlowConvChannels, kSlowConvSize, kSlowConvChannels, kSlowConvKernel, kSlowConvKernel / 2);
}

std::string OpShapes::argsFor(std::string_view op, double kernelNs, bool tensorCores) {
    const double s = kernelNs / 1e9;
    const double plane = double(kBatch * kSize * kSize);  // elements per channel
    auto channels = [](double c) { return std::max<int64_t>(1, std::llround(c)); };
    if (op == "aten::conv2d") {
        // 2 * N * C * 28 * 28 * C * 9 FLOPs, padding 1 keeps the size.
        const double flops = (tensorCores ? kTf32Flops * kConvTensorCorePct : kFp32Flops * kConvDirectPct) / 100 * s;
        const int64_t c = channels(std::sqrt(flops / (2 * plane * 9)));
        return conv(kBatch, c, kSize, c, 3, 1);
    }
    const double bytes = kBytesPerS * kMemoryPct / 100 * s;
    if (op == "aten::batch_norm") {  // read x, write y (fp32); the per-channel vectors are small
        const int64_t c = channels(bytes / (2 * 4 * plane));
        const std::string v = "[" + std::to_string(c) + "]";
        return "\"Input Dims\": [" + dims4(kBatch, c, kSize, kSize) + ", " + v + ", " + v + ", " + v + ", " + v +
               ", [], [], [], []], \"Input type\": [\"float\", \"float\", \"float\", \"float\", \"float\", \"Scalar\", "
               "\"Scalar\", \"Scalar\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"\", \"True\", \"0.1\", "
               "\"1e-05\", \"True\"]";
    }
    if (op == "aten::relu_") {  // in place: read and write x
        const int64_t c = channels(bytes / (2 * 4 * plane));
        return "\"Input Dims\": [" + dims4(kBatch, c, kSize, kSize) + "], \"Input type\": [\"float\"], \"Concrete Inputs\": [\"\"]";
    }
    if (op == "aten::add_") {  // x += y: read both, write x
        const int64_t c = channels(bytes / (3 * 4 * plane));
        const std::string d = dims4(kBatch, c, kSize, kSize);
        return "\"Input Dims\": [" + d + ", " + d + ", []], \"Input type\": [\"float\", \"float\", \"Scalar\"], "
               "\"Concrete Inputs\": [\"\", \"\", \"1\"]";
    }
    if (op == "aten::linear") {  // [128, K] x [K, K]^T: 2 * 128 * K * K FLOPs
        const int64_t k = channels(std::sqrt(kFp32Flops * kLinearPct / 100 * s / (2.0 * kBatch)));
        const std::string kk = std::to_string(k);
        return "\"Input Dims\": [[" + std::to_string(kBatch) + ", " + kk + "], [" + kk + ", " + kk + "], [" + kk +
               "]], \"Input type\": [\"float\", \"float\", \"float\"], \"Concrete Inputs\": [\"\", \"\", \"\"]";
    }
    return {};
}

} // namespace stepscope::synth

#pragma once
// OpCostModel: the floating-point operations and the bytes one framework op moves, from what the
// profiler recorded with its call (PyTorch's record_shapes: "Input Dims", "Input type", "Concrete
// Inputs"; XLA's "flops" and "bytes_accessed" stats on an XPlane op). Issue #33, item 2.
//   convolution (aten::conv1d/2d/3d, convolution, _convolution, cudnn_convolution, and
//     convolution_backward with its output mask): 2 * N * K * prod(out) * C/groups * prod(kernel),
//     out from stride, padding and dilation (transposed: the input's spatial size instead of out);
//     bytes: input + weight + output;
//   matrix products (mm, addmm, bmm, baddbmm, matmul, linear, _scaled_mm): 2 * batch * M * N * K;
//     bytes: both operands and the result;
//   attention (scaled_dot_product_attention and its flash / efficient / cudnn forms, [B, H, L, E]):
//     4 * B * H * L * S * E forward (halved when causal), 2.5x that backward; bytes: q, k, v, out;
//   elementwise and normalisation ops (add, mul, relu, gelu, layer/batch/group norm, softmax, ...):
//     no FLOPs counted, bytes = every tensor input plus one output the size of the largest.
// The dtype is the first tensor input's. Every dimension is range-checked; an op whose shapes are
// absent, negative or absurd has no cost (nullopt), never an invented one. Importers call it while
// they write slices (costRow), so the analysis reads the costs from the session's slice_cost table.

#include "models/store/slice_cost.h"

#include <optional>
#include <string>
#include <string_view>

namespace stepscope {

enum class OpKind { Convolution, MatMul, Attention, Memory };

struct OpCost {
    double flops = 0;  // 0 for memory-bound kinds
    double bytes = 0;
    std::string dtype; // fp64, fp32, tf32, bf16, fp16, fp8, int8, int32, int64; empty when unknown
    OpKind kind = OpKind::Memory;
};

class OpCostModel {
public:
    // True when estimate() may give `name` a cost (a quick filter before its args are read).
    static bool recognizes(std::string_view name);
    static std::optional<OpCost> estimate(std::string_view name, std::string_view argsJson);
    // The short dtype for a PyTorch "Input type" ("c10::BFloat16" -> bf16, "float" -> fp32); empty if unknown.
    static std::string dtypeOf(std::string_view torchType);
    static double bytesPerElement(std::string_view dtype);  // 0 when unknown
    // What an importer stores for a slice about to be written (slice_cost; the caller fills in the
    // slice's id, track, start and name): its cost and its compact input shapes, when its args say
    // what it costs. Quick for the many args that hold neither "Input Dims" nor "flops".
    static std::optional<SliceCostRow> costRow(std::string_view name, std::string_view argsJson);
};

} // namespace stepscope

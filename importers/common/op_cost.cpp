#include "importers/common/op_cost.h"

#include "models/store/slice_args.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace stepscope {

namespace {

using Dims = std::vector<int64_t>;
using Inputs = std::vector<std::optional<Dims>>;

constexpr int64_t kMaxDim = int64_t(1) << 40;
constexpr double kMaxFlops = 1e21;  // more than any one op of any machine runs for a long while

std::string_view bare(std::string_view name) {
    if (name.starts_with("aten::")) name.remove_prefix(6);
    return name;
}

bool valid(const Dims &d) {
    return std::all_of(d.begin(), d.end(), [](int64_t x) { return x >= 0 && x <= kMaxDim; });
}

const Dims *input(const Inputs &in, size_t k) {
    return k < in.size() && in[k] && valid(*in[k]) ? &*in[k] : nullptr;
}

double product(const Dims &d, size_t from = 0, size_t to = SIZE_MAX) {
    double p = 1;
    for (size_t i = from; i < d.size() && i < to; ++i) p *= double(d[i]);
    return p;
}

// A concrete list argument ("[1, 1]") repeated to `n` values; a single number stands for all of them.
std::optional<Dims> concreteList(const std::vector<std::string> &concrete, size_t k, size_t n, int64_t fallback) {
    if (k >= concrete.size() || concrete[k].empty()) return Dims(n, fallback);
    auto v = slice_args::intList(concrete[k]);
    if (!v) {
        if (const auto one = slice_args::intList("[" + concrete[k] + "]"); one && one->size() == 1) v = Dims(n, one->front());
        else return std::nullopt;
    }
    if (v->size() == 1) v = Dims(n, v->front());
    if (v->size() != n || !valid(*v)) return std::nullopt;
    return v;
}

std::optional<int64_t> concreteInt(const std::vector<std::string> &concrete, size_t k, int64_t fallback) {
    if (k >= concrete.size() || concrete[k].empty()) return fallback;
    const auto v = slice_args::intList("[" + concrete[k] + "]");
    if (!v || v->size() != 1 || v->front() < 0 || v->front() > kMaxDim) return std::nullopt;
    return v->front();
}

bool concreteTrue(const std::vector<std::string> &concrete, size_t k) {
    return k < concrete.size() && (concrete[k] == "True" || concrete[k] == "true" || concrete[k] == "1");
}

struct ConvArgs {
    size_t stride, padding, dilation, transposed, groups;  // positions in Concrete Inputs (SIZE_MAX: absent)
};

// FLOPs and the output's elements of one convolution; nullopt when the shapes do not fit together.
std::optional<std::pair<double, double>> convolution(const Dims &x, const Dims &w, const std::vector<std::string> &c, const ConvArgs &a) {
    if (x.size() < 3 || w.size() != x.size()) return std::nullopt;
    const size_t sp = x.size() - 2;
    const auto stride = concreteList(c, a.stride, sp, 1), padding = concreteList(c, a.padding, sp, 0),
               dilation = concreteList(c, a.dilation, sp, 1);
    const auto groups = concreteInt(c, a.groups, 1);
    if (!stride || !padding || !dilation || !groups || *groups < 1) return std::nullopt;
    const bool transposed = concreteTrue(c, a.transposed);
    double outSpatial = 1;
    for (size_t i = 0; i < sp; ++i) {
        const int64_t in = x[2 + i], k = w[2 + i], s = (*stride)[i], p = (*padding)[i], d = (*dilation)[i];
        if (s < 1 || d < 1) return std::nullopt;
        const int64_t out = transposed ? in : (in + 2 * p - d * (k - 1) - 1) / s + 1;
        if (out < 1) return std::nullopt;
        outSpatial *= double(out);
    }
    const double n = double(x[0]), kernel = product(w, 2);
    // Forward: each output element sums C/groups * kernel products. Transposed: each input element
    // scatters into weight[1] * kernel outputs.
    const double flops = transposed ? 2 * n * outSpatial * double(x[1]) * double(w[1]) * kernel
                                    : 2 * n * outSpatial * double(w[0]) * double(w[1]) * kernel;
    const double outElems = transposed ? n * double(w[1]) * double(*groups) * outSpatial : n * double(w[0]) * outSpatial;
    return std::make_pair(flops, outElems);
}

// [..., M, K] x [..., K, N]: FLOPs and the result's elements.
std::optional<std::pair<double, double>> matmul(const Dims &a, const Dims &b) {
    if (a.empty() || b.empty()) return std::nullopt;
    const double m = a.size() >= 2 ? double(a[a.size() - 2]) : 1, k = double(a.back());
    const double kb = b.size() >= 2 ? double(b[b.size() - 2]) : double(b[0]);
    const double n = b.size() >= 2 ? double(b.back()) : 1;
    if (k != kb) return std::nullopt;
    const double batch = std::max(a.size() > 2 ? product(a, 0, a.size() - 2) : 1.0, b.size() > 2 ? product(b, 0, b.size() - 2) : 1.0);
    return std::make_pair(2 * batch * m * n * k, batch * m * n);
}

constexpr std::array<std::string_view, 48> kMemoryOps{
    "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "relu", "relu_", "gelu", "silu", "silu_", "sigmoid",
    "tanh", "threshold_backward", "gelu_backward", "silu_backward", "sigmoid_backward", "clamp_min", "clamp_min_",
    "layer_norm", "native_layer_norm", "native_layer_norm_backward", "batch_norm", "native_batch_norm",
    "cudnn_batch_norm", "cudnn_batch_norm_backward", "native_batch_norm_backward", "group_norm", "native_group_norm",
    "rms_norm", "_fused_rms_norm", "softmax", "_softmax", "log_softmax", "_log_softmax", "_softmax_backward_data",
    "_log_softmax_backward_data", "copy_", "dropout", "native_dropout", "where", "exp", "pow", "rsqrt", "mean", "sum"};

bool isMemoryOp(std::string_view n) { return std::find(kMemoryOps.begin(), kMemoryOps.end(), n) != kMemoryOps.end(); }

bool isAttention(std::string_view n) {
    return n == "scaled_dot_product_attention" || n == "_scaled_dot_product_flash_attention" ||
           n == "_scaled_dot_product_efficient_attention" || n == "_scaled_dot_product_cudnn_attention" ||
           n == "_scaled_dot_product_flash_attention_backward" || n == "_scaled_dot_product_efficient_attention_backward" ||
           n == "_scaled_dot_product_cudnn_attention_backward";
}

bool isConvolution(std::string_view n) {
    return n == "conv1d" || n == "conv2d" || n == "conv3d" || n == "convolution" || n == "_convolution" ||
           n == "cudnn_convolution" || n == "convolution_backward";
}

bool isMatMul(std::string_view n) {
    return n == "mm" || n == "addmm" || n == "bmm" || n == "baddbmm" || n == "matmul" || n == "linear" || n == "_scaled_mm";
}

} // namespace

std::string OpCostModel::dtypeOf(std::string_view t) {
    if (t == "float") return "fp32";
    if (t == "c10::BFloat16") return "bf16";
    if (t == "c10::Half") return "fp16";
    if (t == "double") return "fp64";
    if (t.starts_with("c10::Float8")) return "fp8";
    if (t == "signed char" || t == "unsigned char" || t == "c10::qint8") return "int8";
    if (t == "int") return "int32";
    if (t == "long int" || t == "long") return "int64";
    return {};
}

double OpCostModel::bytesPerElement(std::string_view d) {
    if (d == "fp64" || d == "int64") return 8;
    if (d == "fp32" || d == "tf32" || d == "int32") return 4;
    if (d == "bf16" || d == "fp16") return 2;
    if (d == "fp8" || d == "int8") return 1;
    return 0;
}

std::optional<SliceCostRow> OpCostModel::costRow(std::string_view name, std::string_view json) {
    if (json.find("Input Dims") == std::string_view::npos && json.find("\"flops\"") == std::string_view::npos &&
        json.find("\"bytes_accessed\"") == std::string_view::npos)
        return std::nullopt;
    const auto cost = estimate(name, json);
    if (!cost) return std::nullopt;
    SliceCostRow row;
    row.flops = cost->flops;
    row.bytes = cost->bytes;
    row.dtype = cost->dtype;
    row.shapes = slice_args::compact(slice_args::value(json, "Input Dims").value_or(""));
    if (row.shapes.size() > SliceCostRow::kMaxShapesLength) row.shapes = row.shapes.substr(0, SliceCostRow::kMaxShapesLength - 3) + "...";
    if (!row.plausible()) return std::nullopt;
    return row;
}

bool OpCostModel::recognizes(std::string_view name) {
    const std::string_view n = bare(name);
    return isConvolution(n) || isMatMul(n) || isAttention(n) || isMemoryOp(n);
}

std::optional<OpCost> OpCostModel::estimate(std::string_view name, std::string_view json) {
    OpCost cost;
    // XLA ops carry their own figures.
    const auto xlaFlops = slice_args::number(json, "flops"), xlaBytes = slice_args::number(json, "bytes_accessed");
    if (xlaFlops || xlaBytes) {
        cost.flops = xlaFlops.value_or(0);
        cost.bytes = xlaBytes.value_or(0);
        cost.kind = cost.flops > 0 ? OpKind::MatMul : OpKind::Memory;
        return cost.flops <= kMaxFlops && cost.bytes <= kMaxFlops ? std::optional<OpCost>(cost) : std::nullopt;
    }
    const std::string_view n = bare(name);
    if (!recognizes(name)) return std::nullopt;
    const Inputs in = slice_args::inputDims(json);
    if (in.empty()) return std::nullopt;
    const std::vector<std::string> types = slice_args::stringList(json, "Input type");
    const std::vector<std::string> concrete = slice_args::stringList(json, "Concrete Inputs");
    for (size_t k = 0; k < types.size() && cost.dtype.empty(); ++k)
        if (input(in, k) && !input(in, k)->empty()) cost.dtype = dtypeOf(types[k]);
    const double size = bytesPerElement(cost.dtype);
    auto tensorBytes = [&](const Dims *d) { return d ? product(*d) * size : 0.0; };

    if (isConvolution(n)) {
        cost.kind = OpKind::Convolution;
        const bool backward = n == "convolution_backward";
        const size_t x = backward ? 1 : 0, w = backward ? 2 : 1;
        const Dims *xd = input(in, x), *wd = input(in, w);
        if (!xd || !wd) return std::nullopt;
        ConvArgs a{3, 4, 5, SIZE_MAX, 6};                                         // conv1d/2d/3d
        if (n == "convolution" || n == "_convolution") a = {3, 4, 5, 6, 8};
        else if (n == "cudnn_convolution") a = {3, 2, 4, SIZE_MAX, 5};            // padding comes first
        else if (backward) a = {4, 5, 6, 7, 9};
        const auto f = convolution(*xd, *wd, concrete, a);
        if (!f) return std::nullopt;
        double passes = 1;
        if (backward) {  // output_mask [grad input, grad weight, grad bias]: the first two are convolutions
            std::vector<bool> bits;
            std::string item;
            for (const char ch : concrete.size() > 10 ? concrete[10] : std::string()) {
                if (ch == '[' || ch == ' ') continue;
                if (ch == ',' || ch == ']') bits.push_back(item == "True" || item == "true" || item == "1"), item.clear();
                else item += ch;
            }
            passes = bits.size() >= 2 ? double(bits[0]) + double(bits[1]) : 2;
        }
        cost.flops = f->first * passes;
        cost.bytes = tensorBytes(xd) * (backward ? 2 : 1) + tensorBytes(wd) * (backward ? 2 : 1) + f->second * size;
    } else if (isMatMul(n)) {
        cost.kind = OpKind::MatMul;
        const Dims *a = nullptr, *b = nullptr;
        if (n == "addmm" || n == "baddbmm") a = input(in, 1), b = input(in, 2);
        else a = input(in, 0), b = input(in, 1);
        if (!a || !b) return std::nullopt;
        std::optional<std::pair<double, double>> f;
        if (n == "linear") {  // weight [N, K]
            if (b->size() != 2 || a->empty() || a->back() != (*b)[1]) return std::nullopt;
            const double rows = product(*a, 0, a->size() - 1);
            f = std::make_pair(2 * rows * double((*b)[0]) * double((*b)[1]), rows * double((*b)[0]));
        } else {
            f = matmul(*a, *b);
        }
        if (!f) return std::nullopt;
        cost.flops = f->first;
        cost.bytes = tensorBytes(a) + tensorBytes(b) + f->second * size;
    } else if (isAttention(n)) {
        cost.kind = OpKind::Attention;
        const bool backward = n.ends_with("_backward");
        const size_t q0 = backward ? 1 : 0;
        const Dims *q = input(in, q0), *k = input(in, q0 + 1), *v = input(in, q0 + 2);
        if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4) return std::nullopt;
        const double b = double((*q)[0]), h = double((*q)[1]), l = double((*q)[2]), e = double((*q)[3]);
        const double s = double((*k)[2]), ev = double((*v)[3]);
        double flops = 2 * b * h * l * s * e + 2 * b * h * l * s * ev;
        size_t causalAt = SIZE_MAX;  // where each form keeps is_causal
        if (n == "scaled_dot_product_attention") causalAt = 5;
        else if (n == "_scaled_dot_product_flash_attention") causalAt = 4;
        else if (n == "_scaled_dot_product_efficient_attention" || n == "_scaled_dot_product_cudnn_attention") causalAt = 6;
        if (concreteTrue(concrete, causalAt)) flops /= 2;
        cost.flops = backward ? 2.5 * flops : flops;
        cost.bytes = (tensorBytes(q) + tensorBytes(k) + tensorBytes(v) + b * h * l * ev * size) * (backward ? 2 : 1);
    } else {
        cost.kind = OpKind::Memory;
        double largest = 0;
        for (const auto &d : in)
            if (d && valid(*d) && !d->empty()) {
                const double b = product(*d) * size;
                cost.bytes += b;
                largest = std::max(largest, b);
            }
        cost.bytes += largest;  // one output the size of the largest input (in place: written back)
    }
    if (size == 0 || !(cost.flops >= 0) || cost.flops > kMaxFlops || !(cost.bytes > 0) || cost.bytes > kMaxFlops) return std::nullopt;
    return cost;
}

} // namespace stepscope

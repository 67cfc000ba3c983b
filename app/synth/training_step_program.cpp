#include "app/synth/training_step_program.h"

#include <algorithm>

namespace stepscope::synth {

namespace {

// Kernel names as cuDNN, cuBLAS and ATen report them on sm90 (abridged where templates run to pages).
constexpr std::string_view kConvFpropGemm =
    "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_warpgroupsize1x1x1_g1_"
    "execute_segment_k_off_kernel__5x_cudnn";
constexpr std::string_view kConvFpropDirect =
    "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, float, float, float, "
    "float, float, float>(cudnn::cnn::GroupedDirectFpropParams, float const*, float const*, float*, float, "
    "float, float const*, float const*, float const*, cudnnActivationStruct)";
constexpr std::string_view kConvDgrad =
    "sm90_xmma_dgrad_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_warpgroupsize1x1x1_g1_"
    "execute_segment_k_off_kernel__5x_cudnn";
constexpr std::string_view kConvWgrad =
    "void cudnn::cnn::wgrad2d_grouped_direct_kernel<false, true, int, float, float, float>(cudnn::cnn::"
    "WgradGroupedDirectParams, float const*, float const*, float*, float, float)";
constexpr std::string_view kBnForward =
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, "
    "cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, "
    "float, float)";
constexpr std::string_view kBnBackward =
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, "
    "cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, "
    "float*, float*, float const*, float const*, float)";
constexpr std::string_view kRelu =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar("
    "at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::"
    "operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >("
    "int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, "
    "c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()"
    "() const::{lambda(float)#1}, at::detail::Array<char*, 2>)";
constexpr std::string_view kReluBackward =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl"
    "<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >("
    "int, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, "
    "float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)";
constexpr std::string_view kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<"
    "char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)";
constexpr std::string_view kSoftmaxFwd =
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous "
    "namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)";
constexpr std::string_view kNllFwd =
    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, "
    "float*, float const*, long const*, float const*, bool, long, long, long, long)";
constexpr std::string_view kNllBwd =
    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float "
    "const*, long const*, float const*, float const*, bool, int, int, long, long)";
constexpr std::string_view kSoftmaxBwd =
    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous "
    "namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, int)";
constexpr std::string_view kForeachAdd =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
    "TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::"
    "plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)";
constexpr std::string_view kForeachMul =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
    "TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::"
    "multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous "
    "namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)";
constexpr std::string_view kAllReduce =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";

const OpSpec &op(int which) {
    static const std::vector<OpSpec> ops = {
        /*0 conv (implicit gemm)*/ {
            {"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
            {{kConvFpropGemm, 6.0, {196, 2, 1}, {384, 1, 1}, 168, 213248, 12}}},
        /*1 conv (direct)*/
        {{"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution"},
         {{kConvFpropDirect, 6.0, {1568, 64, 1}, {256, 1, 1}, 40, 4352, 78}}},
        /*2 bn*/
        {{"aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"},
         {{kBnForward, 1.5, {64, 4, 1}, {512, 1, 1}, 56, 8208, 95}}},
        /*3 relu*/ {{"aten::relu_", "aten::clamp_min_"}, {{kRelu, 0.7, {6272, 1, 1}, {128, 1, 1}, 22, 0, 96}}},
        /*4 add*/ {{"aten::add_"}, {{kAdd, 0.7, {6272, 1, 1}, {128, 1, 1}, 24, 0, 95}}},
        /*5 linear*/
        {{"aten::linear", "aten::addmm"}, {{"ampere_sgemm_128x64_tn", 1.0, {8, 2, 1}, {128, 1, 1}, 122, 16384, 12}}},
        /*6 log_softmax*/
        {{"aten::cross_entropy_loss", "aten::log_softmax", "aten::_log_softmax"},
         {{kSoftmaxFwd, 0.2, {128, 1, 1}, {1024, 1, 1}, 30, 0, 48}}},
        /*7 nll*/
        {{"aten::nll_loss_nd", "aten::nll_loss", "aten::nll_loss_forward"},
         {{kNllFwd, 0.1, {1, 1, 1}, {32, 32, 1}, 38, 8192, 2}}},
        /*8 nll bwd*/
        {{"autograd::engine::evaluate_function: NllLossBackward0", "NllLossBackward0", "aten::nll_loss_backward"},
         {{kNllBwd, 0.1, {1, 1, 1}, {32, 1, 1}, 32, 0, 1}}},
        /*9 softmax bwd*/
        {{"autograd::engine::evaluate_function: LogSoftmaxBackward0", "LogSoftmaxBackward0",
          "aten::_log_softmax_backward_data"},
         {{kSoftmaxBwd, 0.2, {128, 1, 1}, {1024, 1, 1}, 34, 0, 47}}},
        /*10 addmm bwd*/
        {{"autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", "aten::mm"},
         {{"ampere_sgemm_64x32_sliced1x4_nt", 1.0, {16, 32, 1}, {128, 1, 1}, 86, 16384, 24},
          {"ampere_sgemm_128x32_nn", 1.0, {16, 4, 1}, {256, 1, 1}, 110, 12288, 22}}},
        /*11 relu bwd*/
        {{"autograd::engine::evaluate_function: ReluBackward0", "ReluBackward0", "aten::threshold_backward"},
         {{kReluBackward, 0.9, {6272, 1, 1}, {128, 1, 1}, 26, 0, 94}}},
        /*12 bn bwd*/
        {{"autograd::engine::evaluate_function: CudnnBatchNormBackward0", "CudnnBatchNormBackward0",
          "aten::cudnn_batch_norm_backward"},
         {{kBnBackward, 2.2, {64, 4, 1}, {512, 1, 1}, 64, 16416, 90}}},
        /*13 conv bwd*/
        {{"autograd::engine::evaluate_function: ConvolutionBackward0", "ConvolutionBackward0",
          "aten::convolution_backward"},
         {{kConvDgrad, 6.0, {196, 2, 1}, {384, 1, 1}, 168, 213248, 12},
          {kConvWgrad, 6.0, {64, 64, 1}, {256, 1, 1}, 48, 8192, 70}}},
        /*14 sgd momentum*/ {{"aten::_foreach_mul_"}, {{kForeachMul, 0.8, {312, 1, 1}, {512, 1, 1}, 28, 0, 88}}},
        /*15 sgd update*/ {{"aten::_foreach_add_"}, {{kForeachAdd, 0.8, {312, 1, 1}, {512, 1, 1}, 32, 0, 86}}},
    };
    return ops[static_cast<size_t>(which)];
}

} // namespace

const KernelSpec &TrainingStepProgram::allReduceKernel() {
    static const KernelSpec k{kAllReduce, 0.0, {4, 1, 1}, {512, 1, 1}, 96, 0, 6};
    return k;
}

const KernelSpec &TrainingStepProgram::metricKernel() {
    static const KernelSpec k{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::NormOps<float>>>",
                              0.0, {1, 1, 1}, {512, 1, 1}, 32, 16, 3};
    return k;
}

int TrainingStepProgram::defaultKernelsPerStep(Bottleneck bottleneck) {
    return bottleneck == Bottleneck::KernelLaunch ? 1410 : 178;
}

void TrainingStepProgram::add(const OpSpec &o, Phase phase) {
    ops_.push_back({&o, phase});
    kernelCount_ += static_cast<int>(o.kernels.size());
    for (const auto &k : o.kernels)
        totalWeight_ += k.weight;
}

TrainingStepProgram::TrainingStepProgram(int kernelsPerStep, Bottleneck bottleneck) {
    if (kernelsPerStep <= 0)
        kernelsPerStep = defaultKernelsPerStep(bottleneck);
    constexpr int kFixed = 10, kPerLayer = 7;
    layers_ = std::max(1, (kernelsPerStep - kFixed) / kPerLayer);
    int residualAdds = std::max(0, kernelsPerStep - kFixed - kPerLayer * layers_);

    for (int l = 0; l < layers_; ++l) {
        add(op(l % 3 == 2 ? 1 : 0), Phase::Forward);
        add(op(2), Phase::Forward);
        add(op(3), Phase::Forward);
        // Residual adds close a block; spread them over the stack.
        if (residualAdds > 0 && (l % std::max(1, layers_ / 7) == 0 || l == layers_ - 1)) {
            add(op(4), Phase::Forward);
            --residualAdds;
        }
    }
    while (residualAdds-- > 0)
        add(op(4), Phase::Forward);
    add(op(5), Phase::Forward);
    add(op(6), Phase::Forward);
    add(op(7), Phase::Forward);

    add(op(8), Phase::Backward);
    add(op(9), Phase::Backward);
    add(op(10), Phase::Backward);
    for (int l = layers_ - 1; l >= 0; --l) {
        add(op(11), Phase::Backward);
        add(op(12), Phase::Backward);
        add(op(13), Phase::Backward);
    }
    add(op(14), Phase::Optimizer);
    add(op(15), Phase::Optimizer);
    add(op(15), Phase::Optimizer);
}

} // namespace stepscope::synth

#pragma once
// TrainingStepProgram: owns the model the synthetic trace pretends to train - a ResNet-like stack of
// conv/batch-norm/relu layers, a linear head, cross-entropy loss, their autograd backward functions and
// an SGD step - as an ordered list of operator chains with the CUDA kernels each one launches, named as
// PyTorch 2.x on an H100 names them. The step simulator walks this list once per step and per GPU.

#include "app/synth/bottleneck.h"

#include <array>
#include <string_view>
#include <vector>

namespace stepscope::synth {

struct KernelSpec {
    std::string_view name;
    double weight; // share of the step's GPU compute time, relative to the other kernels
    std::array<int, 3> grid;
    std::array<int, 3> block;
    int registers;
    int sharedMemory;
    int occupancyPct;
};

// One framework operator as the profiler nests it: chain[0] encloses chain[1] ... and the last one
// launches the kernels. chain[0] of a backward op is "autograd::engine::evaluate_function: X".
struct OpSpec {
    std::vector<std::string_view> chain;
    std::vector<KernelSpec> kernels;
};

enum class Phase { Forward, Backward, Optimizer };

struct ProgramOp {
    const OpSpec *op;
    Phase phase;
};

class TrainingStepProgram {
public:
    // kernelsPerStep <= 0 picks the default for the bottleneck. The count of compute kernels is exactly
    // kernelsPerStep when it is at least 17 (10 fixed kernels + 7 per layer + residual adds).
    TrainingStepProgram(int kernelsPerStep, Bottleneck bottleneck);

    static int defaultKernelsPerStep(Bottleneck bottleneck);

    const std::vector<ProgramOp> &ops() const { return ops_; }
    int kernelCount() const { return kernelCount_; }
    double totalWeight() const { return totalWeight_; }
    int layers() const { return layers_; }

    // Kernels that do not belong to the model: the all-reduce of gradient buckets.
    static const KernelSpec &allReduceKernel();
    // The small reduction behind one metric read with .item() (a norm, a max).
    static const KernelSpec &metricKernel();

private:
    void add(const OpSpec &op, Phase phase);

    std::vector<ProgramOp> ops_;
    int kernelCount_ = 0;
    double totalWeight_ = 0;
    int layers_ = 0;
};

} // namespace stepscope::synth

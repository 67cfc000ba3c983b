#pragma once
// StepSimulator: owns the simulated clocks of a training run - per GPU one host (python) thread clock,
// one compute stream (7) and one NCCL stream (13) - and the correlation / External id counters. The
// generator calls runStep() once per step; the simulator walks the TrainingStepProgram under the
// StepShape the BottleneckShaper gives, emits each event to the TraceEventJsonWriter as soon as its
// duration is known (enclosing ranges therefore follow their children in the file) and reports device
// busy time to the GpuActivityRecorder.
//
// Multi-GPU layout (documented choice): one host process (pid 4242) with one python thread per GPU
// (tid 4242 + g), each running the full step structure - its own ProfilerStep#N, DataLoader, ops and
// launches - for its own device (pid g). Device work starts no earlier than its launch, and kernels and
// copies of one stream never overlap.

#include "app/synth/bottleneck.h"
#include "app/synth/bottleneck_shaper.h"
#include "app/synth/deterministic_random.h"
#include "app/synth/training_step_program.h"

#include <cstdint>
#include <string_view>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope::synth {

class TraceEventJsonWriter;
class GpuActivityRecorder;

struct SimulationSetup {
    Bottleneck bottleneck = Bottleneck::None;
    uint64_t seed = 1;
    int gpus = 1;
    int kernelsPerStep = 0;  // 0 = the bottleneck's default
    int checkpointEvery = 0; // 0 = every 10th step for the checkpoint bottleneck, never otherwise
    bool profileMemory = false; // allocator [memory] instants (see kStaticBytes)
    int64_t inefficientKernelNs = 0; // > 0: inefficientOp() at the end of each forward pass
    // One rank of a data-parallel job (SyntheticJobGenerator): rank > 0 varies the lane's jitter;
    // worldSize > 1 puts the gradient all-reduce in each step (Group size = worldSize).
    int rank = 0;
    int worldSize = 0;
    // > 0: this rank is late by lateNs at the start of every step, for lateCause's reason
    // (lateWork() in step_simulator_host_phases.cpp).
    int64_t lateNs = 0;
    LateCause lateCause = LateCause::Input;
    bool phasesSync = false;  // SyntheticProfileOptions::phasesSync
    bool cudaGraphs = false;  // SyntheticProfileOptions::cudaGraphs
    bool recordShapes = false;  // SyntheticProfileOptions::recordShapes
    int64_t slowConvNs = 0;     // > 0: slowConvOp() at the end of each forward pass
};

class StepSimulator {
public:
    static constexpr int64_t kPid = 4242;
    static constexpr int kComputeStream = 7;
    static constexpr int kNcclStream = 13;
    // With profileMemory, per GPU: parameters, gradients and optimizer state allocated once before the
    // first step; activations allocated in equal parts by the forward ops of each step and freed by
    // its backward ops; the caching allocator reserves kReservedBytes throughout.
    static constexpr int64_t kStaticBytes = int64_t(3) << 30;        // 3 GiB
    static constexpr int64_t kActivationBytes = int64_t(6) << 30;    // 6 GiB per step
    static constexpr int64_t kReservedBytes = int64_t(10) << 30;     // 10 GiB
    static constexpr std::string_view kInefficientKernel =
        "void stepscope_synth::inefficient_scan_kernel<float, 1>(float const*, float*, int)";

    StepSimulator(const SimulationSetup &setup, TraceEventJsonWriter &writer, GpuActivityRecorder *recorder);
    // The same simulation state writing to another writer (and no recorder): a dry run of the next
    // step that does not touch the real output.
    StepSimulator(const StepSimulator &other, TraceEventJsonWriter &writer);

    // Job ranks: all-reduce k of the next step cannot finish before every rank has joined it at
    // joinsNs[k] (missing or -1: no wait). Its NCCL kernel starts when this rank launches it and
    // runs until then, plus its own duration.
    void setCollectiveJoins(std::vector<int64_t> joinsNs) { collectiveJoinsNs_ = std::move(joinsNs); }
    // Where this rank's all-reduces of the last step started, in launch order.
    const std::vector<int64_t> &collectiveStartsNs() const { return collectiveStartsNs_; }

    void writeMetadata();
    void runStep(int64_t stepNumber);
    // The profiler's capture span and window markers; call once after the last step.
    void writeCaptureMarkers();

    int64_t endNs() const;
    int kernelsPerStep() const { return program_.kernelCount(); }

private:
    struct Lane {
        int device;
        int64_t tid;
        int64_t cpu;    // host thread clock
        int64_t stream; // compute stream: end of the last queued work
        int64_t nccl;   // NCCL stream
        DeterministicRandom rng;
        int64_t allocated = 0;  // profileMemory: the allocator's total on this GPU
        // Start times of the kernels launched and not yet started, oldest first: CUDA queues at most
        // kLaunchQueueDepth; a launch beyond it blocks until the oldest starts.
        std::deque<int64_t> queued;
        // While a step's graph runs (cudaGraphs): its launch's correlation id, External id and start.
        int64_t graphCorrelation = -1, graphExt = 0, graphLaunchTs = 0;
    };
    static constexpr size_t kLaunchQueueDepth = 1024;
    // CUPTI callback ids of the runtime calls the simulator writes.
    static constexpr int kCbidLaunchKernel = 211, kCbidGraphLaunch = 311 /* cudaGraphLaunch_v10000 */,
                         kCbidMemcpyAsync = 41, kCbidStreamSynchronize = 131, kCbidStreamWaitEvent = 147,
                         kCbidDeviceSynchronize = 165;
    struct Scope {
        std::string_view cat, name;
        int64_t start, ext;
        std::string args;  // more args members as JSON text (record_shapes), or empty
    };

    Scope open(Lane &l, std::string_view cat, std::string_view name, int64_t preNs);
    void close(Lane &l, const Scope &s, int64_t postNs);
    int64_t us(Lane &l, double lo, double hi) const;

    void runLaneStep(Lane &l, int64_t stepNumber, const StepShape &shape);
    void dataLoader(Lane &l, const StepShape &shape);
    void preprocessing(Lane &l, int64_t budgetNs);
    void copyToDevice(Lane &l, int64_t bytes, int64_t mbps);
    void op(Lane &l, const OpSpec &spec, const StepShape &shape);
    void allReduceBucket(Lane &l, int64_t durNs, int64_t elems);
    void lossItem(Lane &l, const StepShape &shape);
    // One value read back with .item() after a small kernel that computes it: the host waits for it.
    void metricItem(Lane &l);
    // .item(): a 4-byte copy to the host and a stream sync (after a reduction kernel, reduceFirst).
    void readScalar(Lane &l, bool reduceFirst);
    // An op (with more args members, or none) launching one kernel of durNs after the stream's work.
    void singleKernelOp(Lane &l, std::string_view op, std::string args, const KernelSpec &k, int64_t durNs);
    // aten::cumsum launching kInefficientKernel (grid 1, block 32) for setup_.inefficientKernelNs.
    void inefficientOp(Lane &l);
    // aten::conv2d, 11x11 in fp32 (OpShapes::slowConvArgs), launching a direct (non-tensor-core)
    // convolution kernel for setup_.slowConvNs.
    void slowConvOp(Lane &l);
    void callback(Lane &l, const StepShape &shape);
    void checkpoint(Lane &l, const StepShape &shape);
    // A straggling rank's extra host work of setup_.lateNs before its step's data (not for Input,
    // which lengthens the DataLoader instead).
    void lateWork(Lane &l);

    // A runtime API call at the lane's clock (advanced by durNs); with a correlation, the ac2g start too.
    void runtimeCall(Lane &l, std::string_view name, int cbid, int64_t durNs, int64_t corr, int64_t ext);
    void kernel(Lane &l, const KernelSpec &k, int stream, int64_t startNs, int64_t durNs, int64_t corr, int64_t ext,
                int64_t collectiveElems);
    void memcpy(Lane &l, std::string_view name, int64_t startNs, int64_t durNs, int64_t bytes, int64_t corr,
                int64_t ext);
    void flowEnd(Lane &l, int stream, int64_t ts, int64_t corr);
    // A "[memory]" instant at the lane's clock: bytes allocated (> 0) or freed (< 0) on its GPU.
    void memoryEvent(Lane &l, int64_t bytes);

    SimulationSetup setup_;
    std::unordered_map<const OpSpec *, std::string> shapeArgs_;  // recordShapes: chosen once per op
    TraceEventJsonWriter &w_;
    GpuActivityRecorder *recorder_;
    TrainingStepProgram program_;
    BottleneckShaper shaper_;
    std::vector<Lane> lanes_;
    int64_t nextCorrelation_ = 1;
    int64_t nextExternal_ = 1;
    int64_t nextPythonId_ = 1;
    double nsPerWeight_ = 0;
    std::vector<int64_t> collectiveJoinsNs_;
    std::vector<int64_t> collectiveStartsNs_;
};

} // namespace stepscope::synth

#include "app/synth/step_simulator.h"

#include "app/synth/op_shapes.h"

#include "app/synth/trace_event_json_writer.h"
#include "app/synth/gpu_activity_recorder.h"

#include <algorithm>
#include <string>

namespace stepscope::synth {

namespace {
constexpr int64_t kLaunchLatencyNs = 2'500; // a kernel starts at least this long after its launch begins
} // namespace

StepSimulator::StepSimulator(const SimulationSetup &setup, TraceEventJsonWriter &writer, GpuActivityRecorder *recorder)
    : setup_(setup), w_(writer), recorder_(recorder), program_(setup.kernelsPerStep, setup.bottleneck),
      shaper_(setup.bottleneck, setup.seed, std::max(setup.gpus, setup.worldSize), program_.kernelCount(),
              setup.checkpointEvery) {
    for (int g = 0; g < setup_.gpus; ++g) {
        const int64_t start = 1'000'000 + g * 37'000;
        uint64_t laneSeed = DeterministicRandom::mix(setup_.seed, static_cast<uint64_t>(g) + 1);
        if (setup_.rank > 0)  // rank 0 (and every single-process trace) keeps the historical bytes
            laneSeed = DeterministicRandom::mix(laneSeed, static_cast<uint64_t>(setup_.rank));
        lanes_.push_back({g, kPid + g, start, start, start, DeterministicRandom(laneSeed), 0, {}, -1, 0, 0});
    }
}

StepSimulator::StepSimulator(const StepSimulator &o, TraceEventJsonWriter &writer)
    : setup_(o.setup_), w_(writer), recorder_(nullptr), program_(o.program_), shaper_(o.shaper_), lanes_(o.lanes_),
      nextCorrelation_(o.nextCorrelation_), nextExternal_(o.nextExternal_), nextPythonId_(o.nextPythonId_),
      nsPerWeight_(o.nsPerWeight_), collectiveJoinsNs_(o.collectiveJoinsNs_),
      collectiveStartsNs_(o.collectiveStartsNs_) {}

int64_t StepSimulator::us(Lane &l, double lo, double hi) const {
    return static_cast<int64_t>(l.rng.uniform(lo, hi) * 1000.0);
}

int64_t StepSimulator::endNs() const {
    int64_t end = 0;
    for (const auto &l : lanes_)
        end = std::max({end, l.cpu, l.stream, l.nccl});
    return end;
}

void StepSimulator::writeMetadata() {
    w_.begin('M', "", "process_name", kPid, 0, 0).arg("name", "python").end();
    w_.begin('M', "", "process_labels", kPid, 0, 0).arg("labels", "CPU").end();
    w_.begin('M', "", "process_sort_index", kPid, 0, 0).arg("sort_index", kPid).end();
    for (const auto &l : lanes_) {
        const std::string name = "thread " + std::to_string(l.tid) + " (python)";
        w_.begin('M', "", "thread_name", kPid, l.tid, 0).arg("name", name).end();
        w_.begin('M', "", "thread_sort_index", kPid, l.tid, 0).arg("sort_index", l.tid).end();
    }
    const bool nccl = setup_.gpus > 1 || setup_.worldSize > 1 || setup_.bottleneck == Bottleneck::Collective;
    for (const auto &l : lanes_) {
        const std::string label = "GPU " + std::to_string(l.device);
        w_.begin('M', "", "process_name", l.device, 0, 0).arg("name", "python").end();
        w_.begin('M', "", "process_labels", l.device, 0, 0).arg("labels", label).end();
        w_.begin('M', "", "process_sort_index", l.device, 0, 0).arg("sort_index", 16777216 + l.device).end();
        for (int stream : {kComputeStream, kNcclStream}) {
            if (stream == kNcclStream && !nccl)
                continue;
            const std::string sname = "stream " + std::to_string(stream) + " ";
            w_.begin('M', "", "thread_name", l.device, stream, 0).arg("name", sname).end();
            w_.begin('M', "", "thread_sort_index", l.device, stream, 0).arg("sort_index", stream).end();
        }
    }
    w_.begin('i', "", "Iteration Start: PyTorch Profiler", "Traces", "Trace PyTorch Profiler", 0).field("s", "g").end();
}

void StepSimulator::writeCaptureMarkers() {
    const int64_t end = endNs() + 50'000;
    w_.begin('X', "Trace", "PyTorch Profiler (0)", "Spans", "PyTorch Profiler", 0).dur(end).arg("Op count", 0).end();
    w_.begin('i', "", "Record Window End", "Traces", "Trace PyTorch Profiler", end).field("s", "g").end();
    if (recorder_)
        recorder_->extendTo(end);
}

StepSimulator::Scope StepSimulator::open(Lane &l, std::string_view cat, std::string_view name, int64_t preNs) {
    Scope s{cat, name, l.cpu, nextExternal_++, {}};
    l.cpu += preNs;
    return s;
}

void StepSimulator::close(Lane &l, const Scope &s, int64_t postNs) {
    l.cpu += postNs;
    w_.begin('X', s.cat, s.name, kPid, l.tid, s.start).dur(l.cpu - s.start).arg("External id", s.ext).rawArgs(s.args).end();
}

void StepSimulator::runtimeCall(Lane &l, std::string_view name, int cbid, int64_t durNs, int64_t corr, int64_t ext) {
    w_.begin('X', "cuda_runtime", name, kPid, l.tid, l.cpu).dur(durNs).arg("cbid", cbid);
    if (corr)
        w_.arg("correlation", corr);
    w_.arg("External id", ext).end();
    if (corr)
        w_.begin('s', "ac2g", "ac2g", kPid, l.tid, l.cpu).field("id", corr).field("bp", "e").end();
    l.cpu += durNs;
}

void StepSimulator::flowEnd(Lane &l, int stream, int64_t ts, int64_t corr) {
    w_.begin('f', "ac2g", "ac2g", l.device, stream, ts).field("id", corr).field("bp", "e").end();
}

void StepSimulator::kernel(Lane &l, const KernelSpec &k, int stream, int64_t startNs, int64_t durNs, int64_t corr,
                           int64_t ext, int64_t collectiveElems) {
    w_.begin('X', "kernel", k.name, l.device, stream, startNs)
        .dur(durNs)
        .arg("External id", ext)
        .arg("queued", 0)
        .arg("device", l.device)
        .arg("context", 1)
        .arg("stream", stream)
        .arg("correlation", corr)
        .arg("registers per thread", k.registers)
        .arg("shared memory", k.sharedMemory)
        .arg("grid", k.grid)
        .arg("block", k.block)
        .arg("est. achieved occupancy %", k.occupancyPct);
    if (collectiveElems > 0) {
        w_.arg("Collective name", "allreduce")
            .arg("In msg nelems", collectiveElems)
            .arg("Out msg nelems", collectiveElems)
            .arg("Group size", std::max({2, setup_.gpus, setup_.worldSize}))
            .arg("dtype", "Float")
            .arg("Process Group Name", "0")
            .arg("Process Group Description", "default_pg");
    }
    w_.end();
    flowEnd(l, stream, startNs, corr);
    if (recorder_)
        recorder_->addKernel(l.device, startNs, startNs + durNs);
}

void StepSimulator::memcpy(Lane &l, std::string_view name, int64_t startNs, int64_t durNs, int64_t bytes, int64_t corr,
                           int64_t ext) {
    w_.begin('X', "gpu_memcpy", name, l.device, kComputeStream, startNs)
        .dur(durNs)
        .arg("External id", ext)
        .arg("device", l.device)
        .arg("context", 1)
        .arg("stream", kComputeStream)
        .arg("correlation", corr)
        .arg("bytes", bytes)
        .argMilli("memory bandwidth (GB/s)", durNs > 0 ? bytes * 1000 / durNs : 0)
        .end();
    flowEnd(l, kComputeStream, startNs, corr);
    if (recorder_)
        recorder_->addCopy(l.device, startNs, startNs + durNs);
}

void StepSimulator::memoryEvent(Lane &l, int64_t bytes) {
    l.allocated += bytes;
    w_.begin('i', "cpu_instant_event", "[memory]", kPid, l.tid, l.cpu)
        .field("s", "t")
        .arg("Device Type", 1)
        .arg("Device Id", l.device)
        .arg("Addr", 0x7f0000000000LL + (l.allocated & 0xffffffffLL))
        .arg("Bytes", bytes)
        .arg("Total Allocated", l.allocated)
        .arg("Total Reserved", kReservedBytes)
        .end();
}

void StepSimulator::singleKernelOp(Lane &l, std::string_view op, std::string args, const KernelSpec &k, int64_t durNs) {
    Scope scope = open(l, "cpu_op", op, us(l, 8, 14));
    scope.args = std::move(args);
    const int64_t corr = nextCorrelation_++;
    const int64_t launchTs = l.cpu;
    runtimeCall(l, "cudaLaunchKernel", kCbidLaunchKernel, us(l, 3, 6), corr, scope.ext);
    const int64_t start = std::max(launchTs + kLaunchLatencyNs, l.stream + 1'000);
    kernel(l, k, kComputeStream, start, durNs, corr, scope.ext, 0);
    l.stream = start + durNs;
    close(l, scope, us(l, 3, 6));
}

void StepSimulator::inefficientOp(Lane &l) {
    static constexpr KernelSpec kSlow{kInefficientKernel, 0, {1, 1, 1}, {32, 1, 1}, 16, 0, 1};
    singleKernelOp(l, "aten::cumsum", {}, kSlow, setup_.inefficientKernelNs);
}

void StepSimulator::slowConvOp(Lane &l) {
    static constexpr KernelSpec kDirect{"void cudnn::cnn::implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, "
                                        "false, false, true>(int, int, int, float const*, int, float*, float const*, "
                                        "kernel_conv_params, unsigned long long, int, float, float, int, float const*, "
                                        "float const*, bool, int, int)",
                                        0, {98, 1, 32}, {128, 1, 1}, 128, 12544, 25};
    singleKernelOp(l, "aten::conv2d", setup_.recordShapes ? OpShapes::slowConvArgs() : std::string(), kDirect, setup_.slowConvNs);
}

void StepSimulator::runStep(int64_t stepNumber) {
    const StepShape shape = shaper_.shapeFor(stepNumber);
    nsPerWeight_ = static_cast<double>(shape.gpuComputeNs) / program_.totalWeight();
    collectiveStartsNs_.clear();
    StepShape own = shape;
    if (setup_.lateNs > 0 && setup_.lateCause == LateCause::Input)
        own.dataLoaderNs += setup_.lateNs;  // the late rank's batch takes that much longer to arrive
    for (auto &l : lanes_)
        runLaneStep(l, stepNumber, own);
    if (recorder_)
        recorder_->commit();
}

void StepSimulator::runLaneStep(Lane &l, int64_t stepNumber, const StepShape &shape) {
    const std::string stepName = "ProfilerStep#" + std::to_string(stepNumber);
    if (setup_.profileMemory && l.allocated == 0)
        memoryEvent(l, kStaticBytes);  // the model and its optimizer, before the first step
    const Scope step = open(l, "user_annotation", stepName, us(l, 4, 9));
    if (setup_.lateNs > 0 && setup_.lateCause != LateCause::Input)
        lateWork(l);
    dataLoader(l, shape);
    copyToDevice(l, shape.batchBytes, shape.pageableMBps);
    copyToDevice(l, 128 * 8, shape.pageableMBps); // the labels
    const Scope zero = open(l, "user_annotation", "Optimizer.zero_grad#SGD.zero_grad", us(l, 15, 30));
    close(l, zero, us(l, 4, 9));

    int backwardOps = 0, forwardOps = 0;
    for (const auto &p : program_.ops()) {
        backwardOps += p.phase == Phase::Backward;
        forwardOps += p.phase == Phase::Forward;
    }
    // Activations: equal parts per forward op, freed in equal parts by the backward ops (the last
    // backward op frees what rounding left).
    const int64_t actPart = forwardOps > 0 ? kActivationBytes / forwardOps : 0;
    const int64_t freePart = backwardOps > 0 ? actPart * forwardOps / backwardOps : 0;
    int64_t activations = 0;
    int backwardDone = 0;
    const int bucketEvery = std::max(1, backwardOps / shape.buckets);
    const int64_t bucketNs = shape.collectiveNs / shape.buckets;
    const int64_t bucketElems = 25LL * 1024 * 1024 / 4; // DDP's 25 MB buckets of float32
    int backwardSeen = 0, bucketsLaunched = 0;
    bool inOptimizer = false, forwardDone = false;
    Scope optimizer{};
    if (setup_.cudaGraphs) {  // the whole forward, backward and optimizer captured once, replayed here
        const Scope replay = open(l, "cpu_op", "CUDAGraph::replay", us(l, 5, 10));
        l.graphCorrelation = nextCorrelation_++;
        l.graphExt = replay.ext;
        l.graphLaunchTs = l.cpu;
        runtimeCall(l, "cudaGraphLaunch", kCbidGraphLaunch, us(l, 15, 30), l.graphCorrelation, replay.ext);
        close(l, replay, us(l, 2, 5));
    }
    for (const auto &p : program_.ops()) {
        if (p.phase == Phase::Optimizer && !inOptimizer) {
            if (shape.collective) {
                while (bucketsLaunched < shape.buckets) {
                    allReduceBucket(l, static_cast<int64_t>(static_cast<double>(bucketNs) * l.rng.jitter(0.08)),
                                    bucketElems);
                    ++bucketsLaunched;
                }
                // The optimizer's stream waits for the gradients' all-reduce.
                runtimeCall(l, "cudaStreamWaitEvent", kCbidStreamWaitEvent, us(l, 2, 4), 0, nextExternal_++);
                l.stream = std::max(l.stream, l.nccl);
            }
            optimizer = open(l, "user_annotation", "Optimizer.step#SGD.step", us(l, 20, 40));
            inOptimizer = true;
        }
        if (p.phase != Phase::Forward && !forwardDone) {
            forwardDone = true;
            if (setup_.inefficientKernelNs > 0) inefficientOp(l);
            if (setup_.slowConvNs > 0) slowConvOp(l);
        }
        op(l, *p.op, shape);
        if (setup_.profileMemory && p.phase == Phase::Forward && actPart > 0) {
            memoryEvent(l, actPart);
            activations += actPart;
        } else if (setup_.profileMemory && p.phase == Phase::Backward && activations > 0) {
            const int64_t part = ++backwardDone == backwardOps ? activations : std::min(freePart, activations);
            memoryEvent(l, -part);
            activations -= part;
        }
        if (p.phase == Phase::Backward && shape.collective && !shape.collectiveExposed &&
            ++backwardSeen % bucketEvery == 0 && bucketsLaunched < shape.buckets) {
            allReduceBucket(l, static_cast<int64_t>(static_cast<double>(bucketNs) * l.rng.jitter(0.08)), bucketElems);
            ++bucketsLaunched;
        }
    }
    if (inOptimizer)
        close(l, optimizer, us(l, 5, 12));
    l.graphCorrelation = -1;
    if (!setup_.phasesSync)
        lossItem(l, shape);  // with phasesSync the loss is read in the callback, if anywhere
    callback(l, shape);
    if (shape.checkpoint)
        checkpoint(l, shape);
    close(l, step, us(l, 3, 8));
    l.cpu += us(l, 5, 15);
}

void StepSimulator::op(Lane &l, const OpSpec &spec, const StepShape &shape) {
    const bool launchBound = setup_.bottleneck == Bottleneck::KernelLaunch;
    if (l.graphCorrelation >= 0) {  // replayed from the step's graph: no host work, one correlation id
        const double meanKernelNs = static_cast<double>(shape.gpuComputeNs) / program_.kernelCount();
        for (const auto &k : spec.kernels) {
            const double durNs =
                launchBound ? meanKernelNs * l.rng.uniform(0.6, 1.4) : k.weight * nsPerWeight_ * l.rng.jitter(0.08);
            const int64_t start = std::max(l.graphLaunchTs + kLaunchLatencyNs, l.stream + us(l, 0.3, 0.8));
            const int64_t dur = std::max<int64_t>(1'000, static_cast<int64_t>(durNs));
            kernel(l, k, kComputeStream, start, dur, l.graphCorrelation, l.graphExt, 0);
            l.stream = start + dur;
        }
        return;
    }
    const double level = static_cast<double>(shape.opLevelNs);
    l.cpu += static_cast<int64_t>(level * l.rng.uniform(0.2, 0.6)); // python between ops
    Scope scopes[8];
    const size_t depth = std::min<size_t>(spec.chain.size(), 8);
    for (size_t i = 0; i < depth; ++i)
        scopes[i] = open(l, "cpu_op", spec.chain[i], static_cast<int64_t>(level * l.rng.uniform(0.6, 1.4)));
    if (setup_.recordShapes && depth > 0) {
        auto it = shapeArgs_.find(&spec);
        if (it == shapeArgs_.end()) {
            double ns = 0;
            for (const auto &k : spec.kernels) ns += k.weight * nsPerWeight_;
            const bool tensorCores = !spec.kernels.empty() && spec.kernels.front().name.find("tf32") != std::string_view::npos;
            it = shapeArgs_.emplace(&spec, OpShapes::argsFor(spec.chain[0], ns, tensorCores)).first;
        }
        scopes[0].args = it->second;
    }
    const int64_t ext = scopes[depth - 1].ext;
    const double meanKernelNs = static_cast<double>(shape.gpuComputeNs) / program_.kernelCount();
    for (const auto &k : spec.kernels) {
        const int64_t corr = nextCorrelation_++;
        // A full launch queue blocks the launch call until the oldest queued kernel starts.
        while (!l.queued.empty() && l.queued.front() <= l.cpu) l.queued.pop_front();
        int64_t blocked = 0;
        if (l.queued.size() >= kLaunchQueueDepth) {
            blocked = l.queued.front() - l.cpu;
            l.queued.pop_front();
        }
        const int64_t launchTs = l.cpu;
        runtimeCall(l, "cudaLaunchKernel", kCbidLaunchKernel,
                    blocked + static_cast<int64_t>(static_cast<double>(shape.launchNs) * l.rng.uniform(0.7, 1.4)), corr, ext);
        const double durNs =
            launchBound ? meanKernelNs * l.rng.uniform(0.6, 1.4) : k.weight * nsPerWeight_ * l.rng.jitter(0.08);
        // Back-to-back kernels on one stream leave about a microsecond between them.
        const int64_t start = std::max(launchTs + kLaunchLatencyNs + us(l, 0, 2), l.stream + us(l, 0.6, 1.4));
        const int64_t dur = std::max<int64_t>(1'000, static_cast<int64_t>(durNs));
        kernel(l, k, kComputeStream, start, dur, corr, ext, 0);
        l.stream = start + dur;
        l.queued.push_back(start);
        l.cpu += us(l, 0.5, 1.5);
    }
    for (size_t i = depth; i-- > 0;)
        close(l, scopes[i], static_cast<int64_t>(level * l.rng.uniform(0.15, 0.4)));
}

void StepSimulator::allReduceBucket(Lane &l, int64_t durNs, int64_t elems) {
    const Scope outer = open(l, "user_annotation", "nccl:all_reduce", us(l, 3, 6));
    const Scope inner = open(l, "cpu_op", "record_param_comms", us(l, 4, 8));
    const int64_t corr = nextCorrelation_++;
    const int64_t launchTs = l.cpu;
    runtimeCall(l, "cudaLaunchKernel", kCbidLaunchKernel, us(l, 5, 9), corr, inner.ext);
    // Starts once the gradients are computed (queued compute work done) and the previous bucket is reduced.
    const int64_t start = std::max({launchTs + kLaunchLatencyNs, l.stream, l.nccl}) + us(l, 1, 4);
    // On a job's rank an all-reduce spins until the last rank has joined it.
    const size_t k = collectiveStartsNs_.size();
    collectiveStartsNs_.push_back(start);
    if (k < collectiveJoinsNs_.size() && collectiveJoinsNs_[k] > start)
        durNs += collectiveJoinsNs_[k] - start;
    kernel(l, TrainingStepProgram::allReduceKernel(), kNcclStream, start, durNs, corr, inner.ext, elems);
    l.nccl = start + durNs;
    close(l, inner, us(l, 2, 5));
    close(l, outer, us(l, 1, 3));
}

void StepSimulator::copyToDevice(Lane &l, int64_t bytes, int64_t mbps) {
    const Scope to = open(l, "cpu_op", "aten::to", us(l, 3, 6));
    const Scope toCopy = open(l, "cpu_op", "aten::_to_copy", us(l, 4, 8));
    const Scope copy = open(l, "cpu_op", "aten::copy_", us(l, 3, 6));
    const int64_t corr = nextCorrelation_++;
    const int64_t start = std::max(l.cpu + kLaunchLatencyNs, l.stream) + us(l, 0.5, 2);
    const int64_t dur = std::max<int64_t>(1'200, bytes * 1000 / mbps);
    if (setup_.phasesSync) {  // pinned memory: the call only queues the copy
        runtimeCall(l, "cudaMemcpyAsync", kCbidMemcpyAsync, us(l, 4, 8), corr, copy.ext);
        memcpy(l, "Memcpy HtoD (Pinned -> Device)", start, dur, bytes, corr, copy.ext);
    } else {  // pageable memory: the call returns only once the staged copy has finished
        runtimeCall(l, "cudaMemcpyAsync", kCbidMemcpyAsync, start + dur - l.cpu + us(l, 2, 5), corr, copy.ext);
        memcpy(l, "Memcpy HtoD (Pageable -> Device)", start, dur, bytes, corr, copy.ext);
    }
    l.stream = start + dur;
    close(l, copy, us(l, 1, 3));
    close(l, toCopy, us(l, 1, 3));
    close(l, to, us(l, 1, 2));
}

void StepSimulator::metricItem(Lane &l) { readScalar(l, true); }

// The host waits here for everything queued in the step: the usual per-step sync point.
void StepSimulator::lossItem(Lane &l, const StepShape &) { readScalar(l, false); }

void StepSimulator::readScalar(Lane &l, bool reduceFirst) {
    const Scope item = open(l, "cpu_op", "aten::item", us(l, 3, 6));
    const Scope local = open(l, "cpu_op", "aten::_local_scalar_dense", us(l, 4, 8));
    if (reduceFirst) {  // a metric: a small reduction computes the value first
        const int64_t kernelCorr = nextCorrelation_++;
        runtimeCall(l, "cudaLaunchKernel", kCbidLaunchKernel, us(l, 4, 7), kernelCorr, local.ext);
        const int64_t kStart = std::max(l.cpu + kLaunchLatencyNs, l.stream) + us(l, 0.5, 1.5);
        const int64_t kDur = us(l, 3, 6);
        kernel(l, TrainingStepProgram::metricKernel(), kComputeStream, kStart, kDur, kernelCorr, local.ext, 0);
        l.stream = kStart + kDur;
    }
    const int64_t corr = nextCorrelation_++;
    const int64_t start = std::max(l.cpu + kLaunchLatencyNs, l.stream) + us(l, 0.5, 1.5);
    const int64_t dur = us(l, 1.2, 2.2);
    runtimeCall(l, "cudaMemcpyAsync", kCbidMemcpyAsync, us(l, 4, 8), corr, local.ext);
    memcpy(l, "Memcpy DtoH (Device -> Pageable)", start, dur, 4, corr, local.ext);
    l.stream = start + dur;
    runtimeCall(l, "cudaStreamSynchronize", kCbidStreamSynchronize,
                std::max(l.stream - l.cpu, int64_t{0}) + us(l, 2, 4), 0, local.ext);
    close(l, local, us(l, 1, 3));
    close(l, item, us(l, 1, 2));
}

} // namespace stepscope::synth

// StepSimulator, continued: the host-side phases of a step that carry the input, callback and
// checkpoint bottlenecks - the DataLoader's __next__ (an I/O wait, or CPU transforms), the
// on_train_batch_end callback and torch.save. Kept apart from the op/launch machinery in
// step_simulator.cpp so that each file stays readable.

#include "app/synth/trace_event_json_writer.h"
#include "app/synth/step_simulator.h"

#include <algorithm>
#include <array>

namespace stepscope::synth {

namespace {

struct Transform {
    std::string_view name;
    double share; // of one sample group's time
    std::array<std::string_view, 3> atenOps;
};

// torchvision's usual ImageNet training pipeline, as with_stack names its python frames.
constexpr std::array<Transform, 4> kTransforms{{
    {"torchvision/transforms/transforms.py(983): RandomResizedCrop.forward",
     0.45,
     {"aten::slice", "aten::resize_", "aten::_upsample_bilinear2d_aa"}},
    {"torchvision/transforms/transforms.py(703): RandomHorizontalFlip.forward", 0.07, {"aten::flip", "", ""}},
    {"torchvision/transforms/transforms.py(137): ToTensor.__call__",
     0.28,
     {"aten::permute", "aten::contiguous", "aten::div"}},
    {"torchvision/transforms/transforms.py(277): Normalize.forward", 0.20, {"aten::sub_", "aten::div_", ""}},
}};
constexpr std::string_view kCompose = "torchvision/transforms/transforms.py(95): Compose.__call__";
constexpr std::string_view kNext = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
} // namespace

void StepSimulator::dataLoader(Lane &l, const StepShape &shape) {
    const Scope next = open(l, "user_annotation", kNext, us(l, 8, 20));
    // A pipeline that synchronizes the device first (a prefetcher's torch.cuda.synchronize()): it
    // waits for all the GPU work queued so far, then fetches the batch while the GPU idles.
    const bool syncs = setup_.phasesSync && setup_.bottleneck == Bottleneck::Input;
    if (syncs)
        runtimeCall(l, "cudaDeviceSynchronize", kCbidDeviceSynchronize, std::max(l.stream - l.cpu, int64_t{0}) + us(l, 3, 6),
                    0, next.ext);
    const int64_t end = (syncs ? l.cpu : next.start) + shape.dataLoaderNs;
    const int64_t collateNs = std::min<int64_t>(shape.dataLoaderNs / 4, 300'000);
    if (shape.preprocessingOps)
        preprocessing(l, end - collateNs - l.cpu - 20'000);
    else
        l.cpu = std::max(l.cpu, end - collateNs - 10'000); // reading samples: nothing the profiler sees
    const Scope stack = open(l, "cpu_op", "aten::stack", collateNs / 10);
    const Scope cat = open(l, "cpu_op", "aten::cat", collateNs / 10);
    l.cpu += collateNs * 7 / 10;
    close(l, cat, us(l, 1, 3));
    close(l, stack, us(l, 2, 5));
    l.cpu = std::max(l.cpu, end - 4'000);
    close(l, next, us(l, 2, 4));
}

void StepSimulator::preprocessing(Lane &l, int64_t budgetNs) {
    constexpr int kGroups = 16; // samples are transformed in groups, one Compose call each
    const double groupNs = static_cast<double>(std::max<int64_t>(budgetNs, 0)) / kGroups;
    for (int g = 0; g < kGroups; ++g) {
        const int64_t groupEnd = l.cpu + static_cast<int64_t>(groupNs);
        const int64_t parentId = nextPythonId_++;
        const int64_t groupStart = l.cpu;
        l.cpu += static_cast<int64_t>(groupNs * 0.02);
        for (const auto &t : kTransforms) {
            const int64_t pythonId = nextPythonId_++;
            const int64_t tStart = l.cpu;
            const double tNs = groupNs * 0.96 * t.share * l.rng.jitter(0.1);
            const int ops = static_cast<int>(
                std::count_if(t.atenOps.begin(), t.atenOps.end(), [](std::string_view s) { return !s.empty(); }));
            l.cpu += static_cast<int64_t>(tNs * 0.1);
            for (const auto &name : t.atenOps) {
                if (name.empty())
                    continue;
                const Scope a = open(l, "cpu_op", name, static_cast<int64_t>(tNs * 0.8 / ops * 0.1));
                close(l, a, static_cast<int64_t>(tNs * 0.8 / ops * 0.9));
            }
            l.cpu = std::max(l.cpu, tStart + static_cast<int64_t>(tNs));
            w_.begin('X', "python_function", t.name, kPid, l.tid, tStart)
                .dur(l.cpu - tStart)
                .arg("Python parent id", parentId)
                .arg("Python id", pythonId)
                .arg("Python thread", 0)
                .end();
        }
        l.cpu = std::max(l.cpu, groupEnd);
        w_.begin('X', "python_function", kCompose, kPid, l.tid, groupStart)
            .dur(l.cpu - groupStart)
            .arg("Python parent id", 0)
            .arg("Python id", parentId)
            .arg("Python thread", 0)
            .end();
    }
}

void StepSimulator::callback(Lane &l, const StepShape &shape) {
    const Scope cb = open(l, "user_annotation", "on_train_batch_end", us(l, 5, 15));
    // A slow callback that reads its metrics one value at a time: each .item() waits for the GPU;
    // its Python (logging, formatting) then runs while the GPU idles.
    const bool syncs = setup_.phasesSync && setup_.bottleneck == Bottleneck::Callback;
    if (syncs)
        for (int i = 0; i < 24; ++i) metricItem(l);
    const int64_t end = (syncs ? l.cpu : cb.start) + shape.callbackNs;
    // Metrics on host tensors, then (when slow) logging and python work the profiler does not see.
    for (std::string_view name : {"aten::detach", "aten::mean", "aten::to"}) {
        const Scope a = open(l, "cpu_op", name, us(l, 3, 8));
        close(l, a, us(l, 5, 20));
    }
    l.cpu = std::max(l.cpu, end - 3'000);
    close(l, cb, us(l, 1, 3));
}

void StepSimulator::checkpoint(Lane &l, const StepShape &shape) {
    const Scope ck = open(l, "user_annotation", "checkpoint", us(l, 10, 25));
    runtimeCall(l, "cudaDeviceSynchronize", kCbidDeviceSynchronize,
                std::max(l.stream - l.cpu, int64_t{0}) + us(l, 3, 6), 0, ck.ext);
    // Without a per-step sync the wait above can be long: the checkpoint's own work starts after it.
    const int64_t end = (setup_.phasesSync ? l.cpu : ck.start) + shape.checkpointNs;
    const Scope save = open(l, "user_annotation", "torch.save", us(l, 20, 40));
    constexpr int kTensors = 16; // state_dict tensors, copied to host one by one
    const int64_t bytes = shape.checkpointBytes / kTensors;
    for (int i = 0; i < kTensors; ++i) {
        const Scope to = open(l, "cpu_op", "aten::to", us(l, 3, 6));
        const Scope toCopy = open(l, "cpu_op", "aten::_to_copy", us(l, 4, 8));
        const Scope copy = open(l, "cpu_op", "aten::copy_", us(l, 3, 6));
        const int64_t corr = nextCorrelation_++;
        const int64_t start = std::max(l.cpu + 2'500, l.stream) + us(l, 0.5, 2);
        const int64_t dur = bytes * 1000 / shape.pageableMBps;
        runtimeCall(l, "cudaMemcpyAsync", kCbidMemcpyAsync, us(l, 5, 9), corr, copy.ext);
        memcpy(l, "Memcpy DtoH (Device -> Pageable)", start, dur, bytes, corr, copy.ext);
        l.stream = start + dur;
        runtimeCall(l, "cudaStreamSynchronize", kCbidStreamSynchronize,
                    std::max(l.stream - l.cpu, int64_t{0}) + us(l, 2, 4), 0, copy.ext);
        close(l, copy, us(l, 1, 3));
        close(l, toCopy, us(l, 1, 3));
        close(l, to, us(l, 1, 2));
    }
    l.cpu = std::max(l.cpu, end - 40'000); // pickling and writing the file
    close(l, save, us(l, 5, 15));
    close(l, ck, us(l, 5, 15));
}

void StepSimulator::lateWork(Lane &l) {
    // Names the category rules (resources/rules/categories.tsv) file under the cause: torch.save is
    // a checkpoint, a python function that launches nothing is host compute.
    const bool checkpoint = setup_.lateCause == LateCause::Checkpoint;
    const Scope late = checkpoint ? open(l, "user_annotation", "torch.save", us(l, 5, 10))
                                  : open(l, "python_function", "model/weights.py(212): compute_sample_weights", us(l, 5, 10));
    l.cpu = std::max(l.cpu, late.start + setup_.lateNs);
    close(l, late, us(l, 2, 4));
}

} // namespace stepscope::synth

#pragma once
// A synthetic training-like session written straight through SessionWriter, shared by the timeline
// tests and bench_timeline: per step a host "ProfilerStep#N" slice holding a data-loader wait and
// forward/backward phases of aten ops, each op launching a kernel (cudaLaunchKernel -> kernel flow,
// same correlation id) on a GPU stream, plus a memcpy stream. Deterministic for a given spec.

#include "models/store/session_writer.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::test {

struct TimelineFixtureSpec {
    int steps = 4;
    int opsPerStep = 60;                 // ~3 events per op (op, launch, kernel)
    int64_t stepNs = 20'000'000;         // 20 ms
    int64_t timeBaseNs = 1'700'000'000'000'000'000;
};

struct TimelineFixtureInfo {
    int64_t runId = 0, hostTrack = 0, gpuTrack = 0, copyTrack = 0;
    int64_t slices = 0;
    std::vector<int64_t> kernelIds, launchIds;
};

inline TimelineFixtureInfo writeTimelineFixture(SessionStore &store, const TimelineFixtureSpec &spec) {
    TimelineFixtureInfo info;
    SessionWriter w(store);
    w.begin();
    const int64_t src = w.addSource("synthetic://timeline", "synthetic", 0);
    RunInfo run;
    run.name = "worker0";
    run.host = "node-a";
    run.framework = "pytorch";
    run.timeBaseNs = spec.timeBaseNs;
    run.hasEpoch = true;
    info.runId = w.addRun(src, run);
    info.hostTrack = w.addTrack(info.runId, {TrackKind::HostThread, std::nullopt, "python main thread", "1", "1", 0});
    info.gpuTrack = w.addTrack(info.runId, {TrackKind::GpuStream, 0, "stream 7", "0", "7", 0});
    info.copyTrack = w.addTrack(info.runId, {TrackKind::GpuStream, 0, "stream 20 (memcpy)", "0", "20", 1});
    const int64_t nStep = w.intern("ProfilerStep"), nLoad = w.intern("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"),
                  nFwd = w.intern("forward"), nBwd = w.intern("backward"), nLaunch = w.intern("cudaLaunchKernel"),
                  nCopy = w.intern("Memcpy HtoD (Pageable -> Device)"), cat = w.intern("cpu_op"), kcat = w.intern("kernel");
    const int64_t ops[] = {w.intern("aten::conv2d"), w.intern("aten::batch_norm"), w.intern("aten::relu"),
                           w.intern("aten::addmm"), w.intern("aten::add_")};
    const int64_t kernels[] = {w.intern("implicit_convolve_sgemm"), w.intern("bn_fw_tr_1C11_kernel_NCHW"),
                               w.intern("elementwise_kernel<relu>"), w.intern("ampere_sgemm_128x64_tn"),
                               w.intern("vectorized_elementwise_kernel<add>")};
    uint64_t rng = 12345;
    auto rnd = [&rng](int64_t lo, int64_t hi) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        return lo + int64_t((rng >> 33) % uint64_t(hi - lo + 1));
    };
    auto add = [&](int64_t track, int64_t start, int64_t dur, int64_t depth, std::optional<int64_t> parent, int64_t name,
                   std::optional<int64_t> category, std::optional<int64_t> corr = std::nullopt, std::string_view args = {}) {
        SliceRow r;
        r.trackId = track; r.startNs = start; r.durNs = dur; r.depth = depth; r.parentId = parent;
        r.nameId = name; r.categoryId = category; r.correlation = corr; r.argsJson = args;
        ++info.slices;
        return w.addSlice(r);
    };
    int64_t gpuFree = 0, corr = 1;
    for (int s = 0; s < spec.steps; ++s) {
        const int64_t t0 = s * spec.stepNs;
        const int64_t load = spec.stepNs / 5;
        w.addStep(info.runId, s, t0, spec.stepNs - 1000);
        const int64_t stepId = add(info.hostTrack, t0, spec.stepNs - 1000, 0, std::nullopt, nStep, cat, std::nullopt,
                                   "{\"step\": " + std::to_string(s) + "}");
        add(info.hostTrack, t0 + 1000, load, 1, stepId, nLoad, cat);
        add(info.copyTrack, t0 + load + 2000, load / 10, 0, std::nullopt, nCopy, std::nullopt);
        const int64_t phaseStart = t0 + load + 5000, phaseLen = (spec.stepNs - load - 20'000) / 2;
        for (int ph = 0; ph < 2; ++ph) {
            const int64_t ps = phaseStart + ph * phaseLen;
            const int64_t phaseId = add(info.hostTrack, ps, phaseLen - 2000, 1, stepId, ph ? nBwd : nFwd, cat);
            const int n = spec.opsPerStep / 2;
            const int64_t slot = (phaseLen - 4000) / std::max(1, n);
            for (int k = 0; k < n; ++k) {
                const int64_t os = ps + 1000 + k * slot, od = std::max<int64_t>(200, slot - rnd(100, std::max<int64_t>(101, slot / 3)));
                const int which = int(rnd(0, 4));
                const int64_t opId = add(info.hostTrack, os, od, 2, phaseId, ops[which], cat, std::nullopt,
                                         "{\"Input Dims\": [[32, 64, 56, 56]], \"op\": " + std::to_string(k) + "}");
                const int64_t ls = os + od / 4, ld = std::max<int64_t>(100, od / 3);
                const int64_t launchId = add(info.hostTrack, ls, ld, 3, opId, nLaunch, cat, corr);
                const int64_t ks = std::max(ls + ld, gpuFree), kd = rnd(slot / 4 + 50, slot + 50);
                gpuFree = ks + kd + 500;
                const int64_t kernelId = add(info.gpuTrack, ks, kd, 0, std::nullopt, kernels[which], kcat, corr);
                w.addFlow(info.runId, launchId, kernelId, std::nullopt);
                ++corr;
                if (info.kernelIds.size() < 64) { info.kernelIds.push_back(kernelId); info.launchIds.push_back(launchId); }
            }
        }
    }
    w.finishSource(src, info.slices, 0, SourceStatus::Ok);
    w.commit();
    return info;
}

} // namespace stepscope::test

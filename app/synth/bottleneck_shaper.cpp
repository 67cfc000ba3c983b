#include "app/synth/bottleneck_shaper.h"

#include "app/synth/deterministic_random.h"

#include <algorithm>

namespace stepscope::synth {

namespace {
constexpr int64_t kUs = 1000;
constexpr int64_t kMs = 1000 * kUs;

int64_t ns(double v) {
    return static_cast<int64_t>(v);
}
} // namespace

BottleneckShaper::BottleneckShaper(Bottleneck bottleneck, uint64_t seed, int gpus, int kernelsPerStep,
                                   int checkpointEvery)
    : bottleneck_(bottleneck), seed_(seed), gpus_(gpus), kernels_(kernelsPerStep), checkpointEvery_(checkpointEvery) {}

StepShape BottleneckShaper::shapeFor(int64_t stepNumber) const {
    DeterministicRandom rng(DeterministicRandom::mix(seed_ ^ 0x5157E95ull, static_cast<uint64_t>(stepNumber)));
    const double stepJitter = rng.jitter(0.03);
    const bool launchBound = bottleneck_ == Bottleneck::KernelLaunch;
    StepShape s;

    // Device compute: a 110 ms ResNet-ish step, never so finely split that launches would dominate,
    // except when launch-bound is the point (tiny ~3 us kernels).
    const double computeNs = launchBound ? kernels_ * 3.2 * kUs : std::max<double>(110.0 * kMs, kernels_ * 40.0 * kUs);
    s.gpuComputeNs = ns(computeNs * stepJitter);
    s.launchNs = launchBound ? 9 * kUs : ns(5.5 * kUs);
    s.opLevelNs = launchBound ? 7 * kUs : 4 * kUs;

    // The input batch: 128 uint8 224x224 RGB images, or a 4x larger float batch when the copy is the point.
    s.pageableMBps = bottleneck_ == Bottleneck::H2D ? 6500 : 12000;
    s.batchBytes = 128LL * 3 * 224 * 224;
    if (bottleneck_ == Bottleneck::H2D)
        s.batchBytes = ns(static_cast<double>(s.gpuComputeNs) * rng.uniform(0.6, 0.8) * 6.5); // B/ns = GB/s
    const int64_t copyNs = s.batchBytes * 1000 / s.pageableMBps;

    const double cpuPerKernel = static_cast<double>(s.launchNs + 3 * s.opLevelNs);
    const double restNs = std::max(static_cast<double>(s.gpuComputeNs), kernels_ * cpuPerKernel) +
                          static_cast<double>(copyNs) + 1.0 * kMs;

    if (bottleneck_ == Bottleneck::Input || bottleneck_ == Bottleneck::Preprocessing) {
        const double f = rng.uniform(0.42, 0.58); // share of the step spent waiting for the batch
        s.dataLoaderNs = ns(f / (1.0 - f) * restNs);
        s.preprocessingOps = bottleneck_ == Bottleneck::Preprocessing;
    } else {
        s.dataLoaderNs = ns(rng.uniform(0.4, 1.2) * kMs); // workers prefetched the batch: a queue get
    }

    if (bottleneck_ == Bottleneck::Callback) {
        const double f = rng.uniform(0.40, 0.55);
        s.callbackNs = ns(f / (1.0 - f) * (restNs + static_cast<double>(s.dataLoaderNs)));
    } else {
        s.callbackNs = ns(rng.uniform(60, 180) * kUs);
    }

    const int every = checkpointEvery_ > 0 ? checkpointEvery_ : (bottleneck_ == Bottleneck::Checkpoint ? 10 : 0);
    if (every > 0 && stepNumber > 0 && stepNumber % every == 0) {
        s.checkpoint = true;
        const double typical = restNs + static_cast<double>(s.dataLoaderNs + s.callbackNs);
        s.checkpointNs = ns(rng.uniform(5.0, 9.0) * typical);  // over 0.5 s: Nsight's GPU-starvation gap
        s.checkpointBytes = 196LL * 1024 * 1024; // weights + momentum of a ResNet-50
    }

    s.collective = bottleneck_ == Bottleneck::Collective || gpus_ > 1;
    s.collectiveExposed = bottleneck_ == Bottleneck::Collective;
    if (s.collective)
        s.collectiveNs =
            ns(static_cast<double>(s.gpuComputeNs) * (s.collectiveExposed ? rng.uniform(0.55, 0.8) : 0.06));
    return s;
}

} // namespace stepscope::synth

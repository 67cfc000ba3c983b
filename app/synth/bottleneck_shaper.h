#pragma once
// BottleneckShaper: owns the translation of the chosen bottleneck into the timing budget of each step
// (how long the data loader waits, how big the host-to-device copy is, how long kernels and launches
// take, whether this step saves a checkpoint, how long the all-reduce runs). The step simulator asks it
// once per step; all GPUs of a step share the shape, so their timelines stay in step with each other.

#include "app/synth/bottleneck.h"

#include <cstdint>

namespace stepscope::synth {

struct StepShape {
    int64_t dataLoaderNs = 0;      // wall time inside enumerate(DataLoader)#...__next__
    bool preprocessingOps = false; // fill __next__ with CPU transform ops (else: an I/O wait)
    int64_t batchBytes = 0;        // pageable host-to-device copy of the input batch
    int64_t pageableMBps = 0;      // its bandwidth, MB/s
    int64_t gpuComputeNs = 0;      // total duration of the model's kernels
    int64_t launchNs = 0;          // mean cudaLaunchKernel duration
    int64_t opLevelNs = 0;         // mean CPU time each operator level adds around its child
    int64_t callbackNs = 0;        // on_train_batch_end
    bool checkpoint = false;       // torch.save after the callback
    int64_t checkpointNs = 0;
    int64_t checkpointBytes = 0;
    bool collective = false;        // gradient all-reduce present
    bool collectiveExposed = false; // launched after backward and waited for, rather than overlapped
    int64_t collectiveNs = 0;       // total duration of the all-reduce kernels
    int buckets = 4;
};

class BottleneckShaper {
public:
    BottleneckShaper(Bottleneck bottleneck, uint64_t seed, int gpus, int kernelsPerStep, int checkpointEvery);

    StepShape shapeFor(int64_t stepNumber) const;

private:
    Bottleneck bottleneck_;
    uint64_t seed_;
    int gpus_;
    int kernels_;
    int checkpointEvery_;
};

} // namespace stepscope::synth

#pragma once
// SyntheticProfileGenerator: the public face of the synthetic profile generator. It owns the options
// (validated, with a target event count resolved into steps and kernels per step) and runs one
// simulation that writes a PyTorch-profiler (Kineto) Chrome trace, gzip-compressed and streamed, and the
// matching nvidia-smi CSV loop log. Callers: the stepscope-synth program, the build (demo profile),
// tests and benchmarks that need realistic profiles of known shape and size.
//
// Output is a pure function of the options: the same options give byte-identical files on any machine
// (own PRNG, integer time arithmetic, fixed epoch, gzip header without time stamp).

#include "app/synth/bottleneck.h"
#include "app/synth/utc_calendar.h"

#include <cstdint>
#include <filesystem>

namespace stepscope::synth {

struct SyntheticProfileOptions {
    int steps = 20; // ProfilerStep#firstStep ... (replaced when targetEvents > 0)
    Bottleneck bottleneck = Bottleneck::None;
    uint64_t seed = 1;
    int gpus = 1;             // 1..8, one host thread + device per GPU
    int kernelsPerStep = 0;   // model kernels per step per GPU; 0 = bottleneck default
    int64_t targetEvents = 0; // > 0: pick steps (and kernels per step if 0) to reach ~N events
    int gzipLevel = 6;        // 0..9; 1 is ~2x faster for huge outputs
    int64_t epochStartNs = UtcCalendar::epochNs(2026, 1, 15, 10, 0, 0); // baseTimeNanoseconds
    int firstStep = 1;
    int checkpointEvery = 0; // 0 = every 10th step for bottleneck checkpoint, else never
    // PyTorch's profile_memory=True: allocator "[memory]" instants with known sizes - kStaticBytes
    // allocated before the first step, kActivationBytes allocated over the forward pass of each
    // step and freed over its backward pass (step_simulator.h).
    bool profileMemory = false;
    // > 0: one deliberately inefficient kernel (a single 32-thread block) of this many ms per step and
    // GPU, launched by aten::cumsum at the end of the forward pass (step_simulator.h).
    int inefficientKernelMs = 0;
    // The host waits on the device only inside the phases (issue #32's projection truth): the loop
    // reads no loss each step and copies from pinned memory, so without the bottleneck the host runs
    // ahead of the GPU; the callback reads 24 metrics with .item() (a small kernel, a copy and a
    // stream sync each) and the input pipeline synchronizes the device before it fetches a batch.
    bool phasesSync = false;
    // Each step's model kernels launched by one cudaGraphLaunch (torch.cuda.graphs): they share its
    // correlation id, and the host launches nothing else for them.
    bool cudaGraphs = false;
    // PyTorch's record_shapes=True: the forward ops carry their input shapes, chosen so that each runs
    // at a known share of the H100's peak (op_shapes.h).
    bool recordShapes = false;
    // > 0: an 11x11 fp32 convolution on a direct (non-tensor-core) kernel of this many ms per step and
    // GPU, after the forward pass; its shapes are recorded with recordShapes (op_shapes.h).
    int slowConvMs = 0;
};

struct SimulationSetup;
// The simulator's setup for these options (one rank, no straggler).
SimulationSetup simulationSetupFor(const SyntheticProfileOptions &options);

struct SyntheticProfileStats {
    int64_t events = 0; // trace events written, metadata and flows included
    int64_t steps = 0;
    int kernelsPerStep = 0; // model kernels per step per GPU (collectives and copies not counted)
    int gpus = 0;
    int64_t traceDurationNs = 0;   // from baseTimeNanoseconds to the last event
    int64_t uncompressedBytes = 0; // JSON text
    int64_t compressedBytes = 0;   // .gz file (0 when no trace was written)
    int64_t metricSamples = 0;     // 100 ms nvidia-smi samples covering the trace
    int64_t metricRows = 0;        // rows written (samples x gpus; 0 when no CSV was written)
    double meanGpuUtilizationPct = 0;
};

class SyntheticProfileGenerator {
public:
    // Throws std::invalid_argument for out-of-range options.
    explicit SyntheticProfileGenerator(const SyntheticProfileOptions &options);

    // The options after resolving targetEvents and defaults (kernelsPerStep is never 0 here).
    const SyntheticProfileOptions &options() const { return options_; }

    // Writes either file or both (an empty path skips it); parent folders are created. Throws
    // std::runtime_error naming the path when a file cannot be written.
    SyntheticProfileStats generate(const std::filesystem::path &traceGz, const std::filesystem::path &metricsCsv) const;

    // Default trace file name for a bottleneck: "<bottleneck>.pt.trace.json.gz".
    static std::string defaultTraceName(Bottleneck bottleneck);

private:
    SyntheticProfileOptions options_;
};

// The Kineto document head up to "traceEvents":[ : device properties, distributedInfo {rank,
// world_size} (for multi-GPU, collective and job traces, unless distributedInfo is false), base time.
std::string kinetoTraceHead(const SyntheticProfileOptions &o, int rank, int worldSize, bool distributedInfo);

SyntheticProfileStats writeTrace(const SyntheticProfileOptions &options, const std::filesystem::path &traceGz);
SyntheticProfileStats writeNvidiaSmiCsv(const SyntheticProfileOptions &options, const std::filesystem::path &csv);

} // namespace stepscope::synth

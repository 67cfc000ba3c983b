#include "app/synth/synthetic_profile_generator.h"

#include "app/synth/trace_event_json_writer.h"
#include "app/synth/deterministic_random.h"
#include "app/synth/gpu_activity_recorder.h"
#include "app/synth/gzip_file_writer.h"
#include "app/synth/nvidia_smi_csv_writer.h"
#include "app/synth/step_simulator.h"
#include "app/synth/training_step_program.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>

namespace stepscope::synth {

SimulationSetup simulationSetupFor(const SyntheticProfileOptions &o) {
    SimulationSetup s{o.bottleneck, o.seed, o.gpus, o.kernelsPerStep, o.checkpointEvery, o.profileMemory,
                      int64_t(o.inefficientKernelMs) * 1'000'000};
    s.phasesSync = o.phasesSync;
    s.cudaGraphs = o.cudaGraphs;
    s.recordShapes = o.recordShapes;
    s.slowConvNs = int64_t(o.slowConvMs) * 1'000'000;
    return s;
}

namespace {

constexpr int kMaxKernelsPerStep = 1'000'000;
constexpr int64_t kPreferredMaxSteps = 1000; // beyond this a target grows the steps instead


// Events one (non-checkpoint) step adds, and the fixed events around the steps, for a given size.
std::pair<double, double> measureEvents(SyntheticProfileOptions o, int kernelsPerStep) {
    o.kernelsPerStep = kernelsPerStep;
    o.checkpointEvery = 1'000'000'000;
    TraceEventJsonWriter w(nullptr);
    StepSimulator sim(simulationSetupFor(o), w, nullptr);
    sim.writeMetadata();
    const int64_t before = w.events();
    sim.runStep(o.firstStep);
    const int64_t perStep = w.events() - before;
    sim.writeCaptureMarkers();
    return {static_cast<double>(perStep), static_cast<double>(w.events() - perStep)};
}

std::string hex64(uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace

std::string kinetoTraceHead(const SyntheticProfileOptions &o, int rank, int worldSize, bool distributedInfo) {
    std::string h = "{\"schemaVersion\":1,\"deviceProperties\":[";
    for (int g = 0; g < o.gpus; ++g) {
        h += g ? ",\n" : "\n";
        h += "{\"id\":" + std::to_string(g) +
             ",\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":85520809984,\"computeMajor\":9,"
             "\"computeMinor\":0,\"maxThreadsPerBlock\":1024,\"maxThreadsPerMultiprocessor\":2048,"
             "\"regsPerBlock\":65536,\"regsPerMultiprocessor\":65536,\"warpSize\":32,\"sharedMemPerBlock\":49152,"
             "\"sharedMemPerMultiprocessor\":233472,\"numSms\":132,\"sharedMemPerBlockOptin\":232448,"
             "\"maxSharedMemoryPerMultiProcessor\":233472}";
    }
    h += "],\n";
    if (distributedInfo && (o.gpus > 1 || worldSize > 1 || o.bottleneck == Bottleneck::Collective)) {
        // A single-GPU collective trace stands for rank 0 of a two-rank job.
        const int world = std::max({2, o.gpus, worldSize});
        std::string ranks;
        for (int r = 0; r < world; ++r)
            ranks += (r ? "," : "") + std::to_string(r);
        h += "\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" + std::to_string(rank) + ",\"world_size\":" + std::to_string(world) +
             ",\"pg_count\":1,\"pg_config\":[{\"pg_name\":\"0\",\"pg_desc\":\"default_pg\",\"backend_config\":"
             "\"cuda:nccl\",\"pg_size\":" +
             std::to_string(world) + ",\"ranks\":[" + ranks + "]}],\"nccl_version\":\"2.21.5\"},\n";
    }
    const bool withStack = o.bottleneck == Bottleneck::Preprocessing;
    h += "\"record_shapes\":0,\"profile_memory\":" + std::string(o.profileMemory ? "1" : "0") + ",\"with_stack\":" + std::string(withStack ? "1" : "0") +
         ",\"with_flops\":0,\"with_modules\":0,\"cupti_version\":24,\"cuda_runtime_version\":12040,"
         "\"cuda_driver_version\":12040,\n\"trace_id\":\"" +
         hex64(DeterministicRandom::mix(o.seed, 1)) + hex64(DeterministicRandom::mix(o.seed, 2)) + "\",\n";
    h += "\"baseTimeNanoseconds\":" + std::to_string(o.epochStartNs) + ",\n";
    h += "\"traceName\":\"/tmp/libkineto_activities_" + std::to_string(StepSimulator::kPid) + ".json\",\n";
    h += "\"traceEvents\":[";
    return h;
}

SyntheticProfileGenerator::SyntheticProfileGenerator(const SyntheticProfileOptions &options) : options_(options) {
    auto &o = options_;
    if (o.gpus < 1 || o.gpus > 8)
        throw std::invalid_argument("gpus must be 1..8");
    if (o.steps < 1 || o.steps > 10'000'000)
        throw std::invalid_argument("steps must be 1..10000000");
    if (o.kernelsPerStep < 0 || o.kernelsPerStep > kMaxKernelsPerStep)
        throw std::invalid_argument("kernels per step must be 0 (auto) or 1..1000000");
    if (o.targetEvents < 0 || o.targetEvents > 20'000'000'000LL)
        throw std::invalid_argument("target events must be 0 (off) or up to 2e10");
    if (o.gzipLevel < 0 || o.gzipLevel > 9)
        throw std::invalid_argument("gzip level must be 0..9");
    if (o.firstStep < 0 || o.checkpointEvery < 0 || o.epochStartNs < 0 || o.inefficientKernelMs < 0 || o.inefficientKernelMs > 100'000 ||
        o.slowConvMs < 0 || o.slowConvMs > 100'000)
        throw std::invalid_argument("first step, checkpoint interval and epoch start must not be negative");

    const bool autoKernels = o.kernelsPerStep == 0;
    if (autoKernels)
        o.kernelsPerStep = TrainingStepProgram::defaultKernelsPerStep(o.bottleneck);
    if (o.targetEvents <= 0)
        return;
    const double target = static_cast<double>(o.targetEvents);
    auto [perStep, fixed] = measureEvents(o, o.kernelsPerStep);
    if (autoKernels && (target - fixed) / perStep > static_cast<double>(kPreferredMaxSteps)) {
        // Events per step grow linearly with kernels: fit the line and aim at kPreferredMaxSteps steps.
        const int k0 = o.kernelsPerStep;
        const double slope = (measureEvents(o, 2 * k0).first - perStep) / k0;
        const double wanted = (target - fixed) / static_cast<double>(kPreferredMaxSteps);
        o.kernelsPerStep = std::clamp(static_cast<int>(k0 + (wanted - perStep) / slope), k0, kMaxKernelsPerStep);
        std::tie(perStep, fixed) = measureEvents(o, o.kernelsPerStep);
    }
    o.steps = static_cast<int>(std::clamp(std::llround((target - fixed) / perStep), 1LL, 10'000'000LL));
}

std::string SyntheticProfileGenerator::defaultTraceName(Bottleneck bottleneck) {
    return std::string(bottleneckName(bottleneck)) + ".pt.trace.json.gz";
}

SyntheticProfileStats SyntheticProfileGenerator::generate(const std::filesystem::path &traceGz,
                                                          const std::filesystem::path &metricsCsv) const {
    const auto &o = options_;
    std::unique_ptr<GzipFileWriter> gz;
    if (!traceGz.empty())
        gz = std::make_unique<GzipFileWriter>(traceGz, o.gzipLevel);
    TraceEventJsonWriter w(gz.get());
    GpuActivityRecorder activity(o.gpus);
    StepSimulator sim(simulationSetupFor(o), w, &activity);

    w.raw(kinetoTraceHead(o, 0, 0, true));
    sim.writeMetadata();
    for (int s = 0; s < o.steps; ++s)
        sim.runStep(static_cast<int64_t>(o.firstStep) + s);
    sim.writeCaptureMarkers();
    w.raw("\n],\n\"displayTimeUnit\":\"ms\"}\n");
    w.flush();
    if (gz)
        gz->finish();

    SyntheticProfileStats st;
    st.events = w.events();
    st.steps = o.steps;
    st.kernelsPerStep = sim.kernelsPerStep();
    st.gpus = o.gpus;
    st.traceDurationNs = sim.endNs() + 50'000;
    st.uncompressedBytes = w.bytes();
    st.compressedBytes = gz ? gz->bytesOut() : 0;
    st.metricSamples = activity.windows();
    st.meanGpuUtilizationPct = NvidiaSmiCsvWriter::meanUtilization(activity);
    if (!metricsCsv.empty()) {
        // With allocator events, nvidia-smi sees the allocator's reserve plus ~500 MiB of CUDA context.
        NvidiaSmiDevice device;
        if (o.profileMemory) device.memoryUsedMiB = (StepSimulator::kReservedBytes >> 20) + 500;
        st.metricRows = NvidiaSmiCsvWriter::write(metricsCsv, activity, o.epochStartNs, o.seed, device);
    }
    return st;
}

SyntheticProfileStats writeTrace(const SyntheticProfileOptions &options, const std::filesystem::path &traceGz) {
    return SyntheticProfileGenerator(options).generate(traceGz, {});
}

SyntheticProfileStats writeNvidiaSmiCsv(const SyntheticProfileOptions &options, const std::filesystem::path &csv) {
    return SyntheticProfileGenerator(options).generate({}, csv);
}

} // namespace stepscope::synth

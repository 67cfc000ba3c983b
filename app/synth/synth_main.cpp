// stepscope-synth: command-line front end of the synthetic profile generator. Used by the build to make
// the bundled demo profile and by people who need a profile of a known shape or size. Parses flags into
// SyntheticProfileOptions and prints what was written; all logic lives in the stepscope_synth library.

#include "app/synth/nsys_export_writer.h"
#include "app/synth/synthetic_job_generator.h"
#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_logdir_writer.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

namespace {

using namespace stepscope::synth;

constexpr const char *kUsage =
    "usage: stepscope-synth --out DIR [options]\n"
    "Writes a synthetic PyTorch-profiler (Kineto) trace, gzip-compressed, and a matching nvidia-smi CSV\n"
    "loop log (one row per GPU per 100 ms, time stamps in UTC). Same options, same bytes.\n"
    "\n"
    "  --out DIR              output folder (created)\n"
    "  --steps N              training steps (default 20; replaced by --target-events)\n"
    "  --bottleneck NAME      none|input|preprocessing|h2d|kernel_launch|callback|checkpoint|collective\n"
    "                         (default none)\n"
    "  --seed S               random seed (default 1)\n"
    "  --gpus N               1..8 GPUs, one host thread each (default 1)\n"
    "  --kernels-per-step N   model kernels per step per GPU (default: 178, 1410 for kernel_launch)\n"
    "  --target-events N      choose steps (and kernels per step, unless given) to write about N events\n"
    "  --gzip-level L         0..9 (default 6; 1 is much faster for huge outputs)\n"
    "  --checkpoint-every K   save a checkpoint every K-th step (default: 10 for checkpoint, else never)\n"
    "  --first-step N         number of the first ProfilerStep#N (default 1)\n"
    "  --record-shapes        input shapes on the forward ops (record_shapes=True), each op at a known\n"
    "                         share of the H100's peak\n"
    "  --slow-conv MS         an 11x11 fp32 convolution on a direct (non-tensor-core) kernel of MS ms per\n"
    "                         step, after the forward pass\n"
    "  --inefficient-kernel MS  one deliberately inefficient kernel (grid 1, block 32) of MS ms per step,\n"
    "                         launched by aten::cumsum after the forward pass\n"
    "  --phases-sync          the host waits on the GPU only inside the phases: no loss.item() per step,\n"
    "                         pinned copies; the callback reads 24 metrics with .item(), the input\n"
    "                         pipeline synchronizes the device (projection truth through syncs)\n"
    "  --cuda-graphs          each step's model kernels launched by one cudaGraphLaunch (torch.cuda.graphs)\n"
    "  --profile-memory       allocator [memory] events (profile_memory=True): 3 GiB static, 6 GiB of\n"
    "                         activations per step, 10 GiB reserved, on each 80 GB GPU\n"
    "  --epoch-start-ns T     baseTimeNanoseconds (default 2026-01-15T10:00:00Z)\n"
    "  --trace-name REL       trace path under DIR (default <bottleneck>.pt.trace.json.gz)\n"
    "  --metrics-name REL     nvidia-smi CSV path under DIR (default nvidia-smi.csv; empty: none)\n"
    "  --format F             chrome|xplane|both|nsys (default chrome); xplane writes the same loop as\n"
    "                         DIR/plugins/profile/<run>/synthhost.xplane.pb (run = epoch start time),\n"
    "                         nsys as an Nsight Systems SQLite export DIR/<bottleneck>.sqlite (NVTX\n"
    "                         step ranges \"step N\", GPU metrics every 1 ms)\n"
    "  --xplane-steps M       step markers in the XPlane output: profiler_step (ProfilerStep#N with\n"
    "                         step_num, default), tf (TensorFlow's Keras marker \"train\" with step_num),\n"
    "                         none (each step an execution of __inference_train_function_N, no markers)\n"
    "  --ranks N              a data-parallel job of N ranks (2..1024): DIR/rank-<r>.pt.trace.json.gz,\n"
    "                         one per rank, distributedInfo {rank, world_size}, no nvidia-smi log; the\n"
    "                         ranks' first all-reduce of each step runs until the last rank joins\n"
    "  --straggler R          with --ranks: rank R is late every step (default: none)\n"
    "  --straggler-cause C    input|host_compute|checkpoint (default input)\n"
    "  --straggler-ms X       how late, in ms (default 30)\n"
    "  --no-distributed-info  with --ranks: leave distributedInfo out (the rank is only in the file name)\n"
    "  --help                 this text\n";

int usageError(const std::string &msg) {
    std::fprintf(stderr, "stepscope-synth: %s (see --help)\n", msg.c_str());
    return 1;
}

template <typename T> bool parseNumber(std::string_view text, T &out) {
    const auto *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end && !text.empty();
}

} // namespace

int main(int argc, char **argv) {
    SyntheticProfileOptions opt;
    std::filesystem::path outDir;
    std::string traceName, metricsName = "nvidia-smi.csv";
    bool traceNameGiven = false;
    std::string format = "chrome";
    XPlaneLogdirOptions xplaneOptions;
    SyntheticJobOptions job;
    job.ranks = 0;
    job.stragglerNs = 30'000'000;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (flag == "--profile-memory") {
            opt.profileMemory = true;
            continue;
        }
        if (flag == "--phases-sync") {
            opt.phasesSync = true;
            continue;
        }
        if (flag == "--cuda-graphs") {
            opt.cudaGraphs = true;
            continue;
        }
        if (flag == "--record-shapes") {
            opt.recordShapes = true;
            continue;
        }
        if (flag == "--no-distributed-info") {
            job.distributedInfo = false;
            continue;
        }
        if (i + 1 >= argc)
            return usageError("missing value or unknown flag: " + std::string(flag));
        const std::string_view value = argv[++i];
        bool ok = true;
        if (flag == "--out")
            outDir = std::filesystem::path(std::string(value));
        else if (flag == "--steps")
            ok = parseNumber(value, opt.steps);
        else if (flag == "--bottleneck") {
            const auto b = parseBottleneck(value);
            ok = b.has_value();
            if (ok)
                opt.bottleneck = *b;
        } else if (flag == "--seed")
            ok = parseNumber(value, opt.seed);
        else if (flag == "--gpus")
            ok = parseNumber(value, opt.gpus);
        else if (flag == "--kernels-per-step")
            ok = parseNumber(value, opt.kernelsPerStep);
        else if (flag == "--target-events")
            ok = parseNumber(value, opt.targetEvents);
        else if (flag == "--gzip-level")
            ok = parseNumber(value, opt.gzipLevel);
        else if (flag == "--checkpoint-every")
            ok = parseNumber(value, opt.checkpointEvery);
        else if (flag == "--slow-conv")
            ok = parseNumber(value, opt.slowConvMs) && opt.slowConvMs > 0;
        else if (flag == "--inefficient-kernel")
            ok = parseNumber(value, opt.inefficientKernelMs) && opt.inefficientKernelMs > 0;
        else if (flag == "--first-step")
            ok = parseNumber(value, opt.firstStep);
        else if (flag == "--epoch-start-ns")
            ok = parseNumber(value, opt.epochStartNs);
        else if (flag == "--ranks")
            ok = parseNumber(value, job.ranks) && job.ranks >= 2;
        else if (flag == "--straggler")
            ok = parseNumber(value, job.stragglerRank) && job.stragglerRank >= 0;
        else if (flag == "--straggler-cause") {
            const auto c = parseLateCause(value);
            ok = c.has_value();
            if (ok)
                job.stragglerCause = *c;
        } else if (flag == "--straggler-ms") {
            int64_t ms = 0;
            ok = parseNumber(value, ms) && ms >= 0 && ms <= 100'000;
            job.stragglerNs = ms * 1'000'000;
        } else if (flag == "--trace-name") {
            traceName = value;
            traceNameGiven = true;
        } else if (flag == "--metrics-name")
            metricsName = value;
        else if (flag == "--xplane-steps") {
            ok = value == "profiler_step" || value == "tf" || value == "none";
            xplaneOptions.stepMarkers = value == "tf"     ? XPlaneStepMarkers::TfTrain
                                      : value == "none" ? XPlaneStepMarkers::None
                                                        : XPlaneStepMarkers::ProfilerStep;
        } else if (flag == "--format") {
            format = value;
            ok = format == "chrome" || format == "xplane" || format == "both" || format == "nsys";
        }
        else
            return usageError("unknown flag: " + std::string(flag));
        if (!ok)
            return usageError("bad value for " + std::string(flag) + ": " + std::string(value));
    }
    if (outDir.empty())
        return usageError("--out DIR is required");
    if (job.ranks == 0 && job.stragglerRank >= 0)
        return usageError("--straggler needs --ranks");
    try {
        if (job.ranks > 0) {
            job.rank = opt;
            const auto t0 = std::chrono::steady_clock::now();
            const SyntheticJobStats st = generateJob(job, outDir);
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            for (const auto &f : st.files)
                std::printf("trace: %s\n", f.string().c_str());
            std::printf("ranks: %d, straggler: %s, steps: %lld, events: %lld, mean wait in the first all-reduce: %.3f ms\n",
                        job.ranks,
                        job.stragglerRank < 0 ? "none"
                                              : (std::to_string(job.stragglerRank) + " (" +
                                                 std::string(lateCauseName(job.stragglerCause)) + ")").c_str(),
                        static_cast<long long>(st.steps), static_cast<long long>(st.events),
                        static_cast<double>(st.meanWaitNs) / 1e6);
            std::printf("time: %.2f s\n", secs);
            return 0;
        }
        const SyntheticProfileGenerator gen(opt);
        if (!traceNameGiven)
            traceName = SyntheticProfileGenerator::defaultTraceName(opt.bottleneck);
        const auto tracePath =
            traceName.empty() || format == "xplane" || format == "nsys" ? std::filesystem::path() : outDir / traceName;
        const auto csvPath = metricsName.empty() ? std::filesystem::path() : outDir / metricsName;
        const auto t0 = std::chrono::steady_clock::now();
        const SyntheticProfileStats st = gen.generate(tracePath, csvPath);
        if (format == "nsys") {
            const NsysExportResult n =
                writeNsysExport(opt, outDir / (std::string(bottleneckName(opt.bottleneck)) + ".sqlite"));
            std::printf("nsys: %s (%lld rows, %lld GPU metric samples)\n", n.file.string().c_str(),
                        static_cast<long long>(n.rows), static_cast<long long>(n.metricSamples));
        } else if (format != "chrome") {
            const XPlaneLogdirResult x = writeXPlaneLogdir(opt, outDir, xplaneOptions, tracePath);
            std::printf("xplane: %s (%lld events, %lld bytes)\n", x.file.string().c_str(),
                        static_cast<long long>(x.xplane.events), static_cast<long long>(x.xplane.bytes));
        }
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!tracePath.empty())
            std::printf("trace: %s\n", tracePath.string().c_str());
        if (!csvPath.empty())
            std::printf("metrics: %s (%lld rows)\n", csvPath.string().c_str(), static_cast<long long>(st.metricRows));
        std::printf("bottleneck: %s, gpus: %d, steps: %lld, kernels/step: %d, events: %lld\n",
                    std::string(bottleneckName(opt.bottleneck)).c_str(), st.gpus, static_cast<long long>(st.steps),
                    st.kernelsPerStep, static_cast<long long>(st.events));
        std::printf("trace span: %.3f s, json: %lld bytes, gzip: %lld bytes, mean gpu util: %.1f %%\n",
                    static_cast<double>(st.traceDurationNs) / 1e9, static_cast<long long>(st.uncompressedBytes),
                    static_cast<long long>(st.compressedBytes), st.meanGpuUtilizationPct);
        std::printf("time: %.2f s (%.0f events/s)\n", secs, secs > 0 ? static_cast<double>(st.events) / secs : 0.0);
    } catch (const std::invalid_argument &e) {
        return usageError(e.what());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "stepscope-synth: %s\n", e.what());
        return 2;
    }
    return 0;
}

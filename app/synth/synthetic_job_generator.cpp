#include "app/synth/synthetic_job_generator.h"

#include "app/synth/gzip_file_writer.h"
#include "app/synth/step_simulator.h"
#include "app/synth/trace_event_json_writer.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace stepscope::synth {

namespace {

struct RankOutput {
    std::unique_ptr<GzipFileWriter> gz;
    std::unique_ptr<TraceEventJsonWriter> json;
    std::unique_ptr<StepSimulator> sim;
};

} // namespace

SyntheticJobStats generateJob(const SyntheticJobOptions &options, const std::filesystem::path &outDir) {
    if (options.ranks < 2 || options.ranks > 1024)
        throw std::invalid_argument("ranks must be 2..1024");
    if (options.stragglerRank >= options.ranks)
        throw std::invalid_argument("the straggler rank must be below --ranks");
    if (options.stragglerNs < 0 || options.stragglerNs > 100'000'000'000LL)
        throw std::invalid_argument("the straggler's delay must be 0..100 s");
    if (options.rank.gpus != 1)
        throw std::invalid_argument("a job's ranks have one GPU each (--gpus 1)");
    // Resolves --target-events (per rank) and the bottleneck's defaults once for every rank.
    const SyntheticProfileOptions o = SyntheticProfileGenerator(options.rank).options();
    std::filesystem::create_directories(outDir);

    SyntheticJobStats stats;
    std::vector<RankOutput> out(size_t(options.ranks));
    for (int r = 0; r < options.ranks; ++r) {
        RankOutput &ro = out[size_t(r)];
        const auto path = outDir / (options.filePrefix + std::to_string(r) + ".pt.trace.json.gz");
        stats.files.push_back(path);
        ro.gz = std::make_unique<GzipFileWriter>(path, o.gzipLevel);
        ro.json = std::make_unique<TraceEventJsonWriter>(ro.gz.get());
        SimulationSetup setup = simulationSetupFor(o);
        setup.gpus = 1;
        setup.rank = r;
        setup.worldSize = options.ranks;
        if (r == options.stragglerRank) {
            setup.lateNs = options.stragglerNs;
            setup.lateCause = options.stragglerCause;
        }
        ro.sim = std::make_unique<StepSimulator>(setup, *ro.json, nullptr);
        ro.json->raw(kinetoTraceHead(o, r, options.ranks, options.distributedInfo));
        ro.sim->writeMetadata();
    }

    // Every all-reduce of a step ends on all ranks once the last rank has joined it. Dry runs of
    // the step (on copies that write nothing) find, bucket after bucket, when each rank launches
    // all-reduce k given the joins of the ones before it (everything before that launch is the
    // same in the dry and the real run); then the real run lets each NCCL kernel spin until its join.
    int64_t waitNs = 0, waits = 0;
    TraceEventJsonWriter counter(nullptr);
    std::vector<int64_t> firstArrival(size_t(options.ranks), -1);
    for (int s = 0; s < o.steps; ++s) {
        const int64_t step = int64_t(o.firstStep) + s;
        std::vector<int64_t> joins;
        for (size_t k = 0;; ++k) {
            int64_t join = -1;
            for (size_t r = 0; r < out.size(); ++r) {
                StepSimulator dry(*out[r].sim, counter);
                dry.setCollectiveJoins(joins);
                dry.runStep(step);
                const auto &starts = dry.collectiveStartsNs();
                if (k < starts.size())
                    join = std::max(join, starts[k]);
                if (k == 0)
                    firstArrival[r] = starts.empty() ? -1 : starts.front();
            }
            if (join < 0)
                break;
            joins.push_back(join);
        }
        for (size_t r = 0; r < out.size(); ++r) {
            out[r].sim->setCollectiveJoins(joins);
            out[r].sim->runStep(step);
            if (firstArrival[r] >= 0 && !joins.empty() && joins.front() > firstArrival[r]) {
                waitNs += joins.front() - firstArrival[r];
                ++waits;
            }
        }
    }
    for (RankOutput &ro : out) {
        ro.sim->writeCaptureMarkers();
        ro.json->raw("\n],\n\"displayTimeUnit\":\"ms\"}\n");
        ro.json->flush();
        ro.gz->finish();
        stats.events += ro.json->events();
    }
    stats.steps = o.steps;
    stats.meanWaitNs = waits ? waitNs / waits : 0;
    return stats;
}

} // namespace stepscope::synth

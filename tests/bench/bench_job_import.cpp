// Benchmark of a data-parallel job's import and analysis (issue #15).
//
//   bench_job_import [--ranks N] [--events-per-rank E] [--jobs-list 1,2] [--dir DIR] [--keep] [--no-analysis]
//
// Writes an N-rank synthetic job (default 8 ranks of ~250,000 events, rank 3 late by 30 ms of input
// each step) with the job generator, then for each --jobs value imports the whole folder into a new
// session in a fresh child process (so peak RSS is that run's own) and prints wall seconds, peak RSS
// and the speed-up against the first value; unless --no-analysis, a last child opens the session
// and builds the report (every rank's analysis and the job analysis) and prints its time, peak RSS
// and the straggler it names.

#include "app/synth/synthetic_job_generator.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/analysis/report/report_builder.h"
#include "tests/bench/bench_child.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int importChild(const fs::path &job, const fs::path &session, int jobs) {
    for (const char *suffix : {"", "-wal", "-shm"}) fs::remove(session.string() + suffix);
    const double t0 = now();
    SessionStore store(session.string());
    ImporterRegistry registry;
    ImportOptions options;
    options.jobs = jobs;
    const ImportSummary s = SessionImporter(store, registry).run({job}, {}, {}, options);
    std::printf("%lld %d %.3f\n", static_cast<long long>(s.events()), int(s.sources.size()), now() - t0);
    return 0;
}

int analyseChild(const fs::path &session) {
    const double t0 = now();
    SessionStore store(session.string());
    const Report report = ReportBuilder(store).build();
    const double secs = now() - t0;
    if (!report.job) {
        std::printf("nojob %.3f\n", secs);
        return 0;
    }
    const auto &st = report.job->stragglers;
    std::printf("%d %.3f %s %lld %.2f\n", report.job->ranks, secs, st.empty() ? "none" : st.front().cause.c_str(),
                st.empty() ? -1LL : static_cast<long long>(st.front().rank), st.empty() ? 0.0 : st.front().lateMsPerStep);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc >= 5 && std::strcmp(argv[1], "--child") == 0 && std::strcmp(argv[2], "import") == 0)
        return importChild(argv[3], argv[4], argc > 5 ? std::atoi(argv[5]) : 1);
    if (argc >= 4 && std::strcmp(argv[1], "--child") == 0 && std::strcmp(argv[2], "analyse") == 0)
        return analyseChild(argv[3]);
    int ranks = 8;
    int64_t eventsPerRank = 250'000;
    std::vector<int> jobsList{1, 2};
    fs::path dir = fs::temp_directory_path() / "stepscope_bench_job";
    bool keep = false, analysis = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--ranks" && more) ranks = std::atoi(argv[++i]);
        else if (a == "--events-per-rank" && more) eventsPerRank = std::atoll(argv[++i]);
        else if (a == "--dir" && more) dir = argv[++i];
        else if (a == "--keep") keep = true;
        else if (a == "--no-analysis") analysis = false;
        else if (a == "--jobs-list" && more) {
            jobsList.clear();
            std::stringstream list(argv[++i]);
            for (std::string item; std::getline(list, item, ',');) jobsList.push_back(std::atoi(item.c_str()));
        } else {
            std::fprintf(stderr, "usage: bench_job_import [--ranks N] [--events-per-rank E] [--jobs-list 1,2] [--dir DIR] [--keep] [--no-analysis]\n");
            return 1;
        }
    }
    const fs::path jobDir = dir / "job";
    fs::remove_all(dir);
    synth::SyntheticJobOptions o;
    o.ranks = ranks;
    o.stragglerRank = ranks > 3 ? 3 : 1;
    o.stragglerNs = 30'000'000;
    o.rank.targetEvents = eventsPerRank;
    o.rank.gzipLevel = 1;
    double t0 = now();
    const synth::SyntheticJobStats gen = synth::generateJob(o, jobDir);
    int64_t bytes = 0;
    for (const auto &f : gen.files) bytes += int64_t(fs::file_size(f));
    std::printf("job: %d ranks, %lld events (%lld per rank), %lld steps, %.1f MB gzip, generated in %.1f s\n", ranks,
                static_cast<long long>(gen.events), static_cast<long long>(gen.events / ranks),
                static_cast<long long>(gen.steps), double(bytes) / 1e6, now() - t0);
    double first = 0;
    fs::path lastSession;
    for (int jobs : jobsList) {
        lastSession = dir / ("jobs" + std::to_string(jobs) + ".stepscope");
        const auto run = bench::runSelfAsChild({"--child", "import", jobDir.string(), lastSession.string(), std::to_string(jobs)});
        long long events = 0;
        int sources = 0;
        double secs = 0;
        std::sscanf(run.out.c_str(), "%lld %d %lf", &events, &sources, &secs);
        if (first == 0) first = secs;
        std::printf("import --jobs %d: %lld events from %d files in %.2f s (%.0f events/s), peak RSS %.0f MB, %.2fx the --jobs %d time\n",
                    jobs, events, sources, secs, secs > 0 ? double(events) / secs : 0.0, double(run.peakRssKb) / 1024.0,
                    first > 0 ? secs / first : 0.0, jobsList.front());
        std::fflush(stdout);
    }
    if (analysis) {
        const auto run = bench::runSelfAsChild({"--child", "analyse", lastSession.string()});
        int jobRanks = 0;
        double secs = 0, late = 0;
        char cause[64] = {};
        long long straggler = -1;
        std::sscanf(run.out.c_str(), "%d %lf %63s %lld %lf", &jobRanks, &secs, cause, &straggler, &late);
        std::printf("analysis (every rank + the job): %.2f s, peak RSS %.0f MB; job of %d ranks, straggler %lld (%s, %.1f ms/step)\n",
                    secs, double(run.peakRssKb) / 1024.0, jobRanks, straggler, cause, late);
    }
    if (!keep) fs::remove_all(dir);
    return 0;
}

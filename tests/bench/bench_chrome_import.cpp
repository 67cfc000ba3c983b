// Benchmark of ChromeTraceImporter against a bare reference loop over the same file.
//
//   bench_chrome_import [--events N] [--dir DIR] [--gzip-level L] [--keep] [--cancel-after-ms N]
//
// Each importer run also reports the longest gap between progress callbacks (import start → first
// callback, callback → callback, last callback → return). With --cancel-after-ms N, one more
// importer run per file (per N: the flag may be repeated) sets the ImportContext cancel flag N ms after import() starts and reports
// how long import() took to return after that.
//
// Generates a Kineto-style trace of ~N events with the synthetic profile generator (stepscope_synth),
// writes it gzip-compressed and plain, then for each file measures, each in a fresh child process
// (so peak RSS is that run's own): the importer into a new session, and the reference loop — whole
// file read (and un-gzipped) into memory, simdjson On-Demand parse, one prepared INSERT into the same
// `slice` table (same schema, indexes and pragmas) per complete event, one transaction. Prints
// events/s, MB/s of JSON, peak RSS, session bytes per event (slice table + its index, and whole
// file) and the importer/reference time ratio. A second, lean reference loop does the same without
// args: (ts, dur, name id, cat id, track) rows plus the index, nothing else (#19 item 7: the import
// within 1.5× of it). The reference loops need simdjson linked and STEPSCOPE_BENCH_SIMDJSON defined;
// without it only the importer is measured.

#include "app/synth/synthetic_profile_generator.h"
#include "importers/chrome/chrome_trace_importer.h"
#include "models/store/session_store.h"
#include "models/concurrency/cancel_token.h"
#include "models/concurrency/worker_thread.h"
#include "models/store/session_writer.h"
#include "tests/bench/bench_child.h"

#ifdef STEPSCOPE_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <zlib.h>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Bytes of the slice table and its index, from SQLite's dbstat.
int64_t sliceBytes(SessionStore &store) {
    SqliteStatement st(store.db(), "SELECT SUM(pgsize) FROM dbstat WHERE name IN ('slice', 'slice_track_start')");
    return st.step() ? st.columnInt(0) : -1;
}

int64_t argsBytes(SessionStore &store) {
    SqliteStatement st(store.db(), "SELECT COALESCE(SUM(LENGTH(args)), 0) FROM slice");
    return st.step() ? st.columnInt(0) : -1;
}

// Child: import `trace` into `session`; prints "events seconds sliceBytes argsBytes maxProgressGapMs
// progressCalls cancelLatencyMs" (cancelLatencyMs -1 when not cancelled or the import ended first).
int runImporter(const fs::path &trace, const fs::path &session, long cancelAfterMs) {
    fs::remove(session);
    const double t0 = now();
    SessionStore store(session);
    SessionWriter w(store);
    w.begin();
    if (const char *kib = std::getenv("STEPSCOPE_BENCH_CACHE_KIB"))  // A/B runs of the import page cache
        sqliteExec(store.db(), "PRAGMA cache_size=-" + std::string(kib));
    const int64_t src = w.addSource(trace.string(), "chrome_json", int64_t(fs::file_size(trace)));
    const CancelToken cancel;
    std::atomic<double> cancelledAt{0.0};
    double lastProgress = 0, maxGap = 0;
    long long progressCalls = 0;
    double gapEndFraction = -1;
    ImportContext ctx(w, src, trace.string(), cancel, [&](int64_t doneBytes, int64_t totalBytes) {
        const double t = now();
        if (t - lastProgress > maxGap && totalBytes > 0)
            gapEndFraction = double(doneBytes) / double(totalBytes);
        maxGap = std::max(maxGap, t - lastProgress);
        lastProgress = t;
        ++progressCalls;
    });
    std::atomic<bool> done{false};
    WorkerThread canceller;
    if (cancelAfterMs >= 0)
        canceller = WorkerThread([&] {
            const double until = now() + double(cancelAfterMs) / 1000.0;
            while (!done.load() && now() < until)
                std::this_thread::sleep_for(std::chrono::microseconds(200));
            if (!done.load()) {
                cancelledAt.store(now());
                cancel.cancel();
            }
        });
    ChromeTraceImporter imp;
    lastProgress = now();
    const ImportResult r = imp.import(trace, ctx);
    const double returned = now();
    done.store(true);
    if (canceller.joinable())
        canceller.join();
    if (returned - lastProgress > maxGap)
        gapEndFraction = 2;  // the gap before import() returned
    maxGap = std::max(maxGap, returned - lastProgress);
    if (std::getenv("STEPSCOPE_BENCH_VERBOSE"))
        std::fprintf(stderr, "longest progress gap %.1f ms ended at progress %.3f\n", maxGap * 1000, gapEndFraction);
    const double cancelLatencyMs = cancelledAt.load() > 0 ? (returned - cancelledAt.load()) * 1000.0 : -1.0;
    if (cancel.cancelled()) {
        w.rollback();
    } else {
        w.finishSource(src, r.events, ctx.warnings(), r.status);
        w.commit();
    }
    const double t1 = now();
    std::printf("%lld %.6f %lld %lld %.3f %lld %.3f\n", (long long)r.events, t1 - t0,
                cancel.cancelled() ? 0LL : (long long)sliceBytes(store), cancel.cancelled() ? 0LL : (long long)argsBytes(store),
                maxGap * 1000.0, progressCalls, cancelLatencyMs);
    return r.status == SourceStatus::Ok ? 0 : 3;
}

#ifdef STEPSCOPE_BENCH_SIMDJSON
// withArgs = false: the lean loop (args skipped, never re-serialised or stored).
int runReference(const fs::path &trace, const fs::path &session, bool withArgs) {
    fs::remove(session);
    const double t0 = now();
    std::string json;
    {
        gzFile f = gzopen(trace.string().c_str(), "rb");  // reads plain files as they are
        gzbuffer(f, 1 << 20);
        std::vector<char> buf(1 << 20);
        int n;
        while ((n = gzread(f, buf.data(), unsigned(buf.size()))) > 0)
            json.append(buf.data(), size_t(n));
        gzclose(f);
    }
    SessionStore store(session);
    SessionWriter w(store);
    w.begin();
    RunInfo run;
    run.name = "reference";
    const int64_t src = w.addSource(trace.string(), "reference", 0);
    const int64_t runId = w.addRun(src, run);
    std::unordered_map<std::string, int64_t> tracks;
    std::unordered_map<std::string, int64_t> strings;
    auto intern = [&](std::string_view s) {
        auto it = strings.find(std::string(s));
        if (it != strings.end())
            return it->second;
        const int64_t id = w.intern(s);
        strings.emplace(std::string(s), id);
        return id;
    };
    SqliteStatement insert(store.db(), "INSERT INTO slice(track_id, start_ns, dur_ns, depth, name_id, category_id, "
                                       "correlation, args) VALUES (?, ?, ?, 0, ?, ?, ?, ?)");
    simdjson::ondemand::parser parser;
    simdjson::padded_string padded(json);
    json.clear();
    json.shrink_to_fit();
    auto doc = parser.iterate(padded);
    int64_t events = 0;
    for (auto value : doc["traceEvents"].get_array()) {
        simdjson::ondemand::object ev = value.get_object();
        std::string_view ph, name, cat, args;
        std::string key;
        double ts = 0, dur = 0;
        int64_t correlation = INT64_MIN;
        for (auto field : ev) {
            const std::string_view k = field.unescaped_key().value();
            auto v = field.value();
            if (k == "ph") ph = v.get_string().value();
            else if (k == "name") name = v.get_string().value();
            else if (k == "cat") cat = v.get_string().value();
            else if (k == "pid" || k == "tid") key += std::string(simdjson::to_json_string(v).value()) + "/";
            else if (k == "ts") ts = v.get_double().value();
            else if (k == "dur") dur = v.get_double().value();
            else if (k == "args" && withArgs) {
                args = simdjson::to_json_string(v).value();
            }
        }
        if (ph != "X")
            continue;
        auto [it, inserted] = tracks.emplace(key, 0);
        if (inserted) {
            TrackInfo info;
            info.name = key;
            it->second = w.addTrack(runId, info);
        }
        insert.bind(1, it->second);
        insert.bind(2, int64_t(ts * 1000));
        insert.bind(3, int64_t(dur * 1000));
        insert.bind(4, intern(name));
        insert.bind(5, intern(cat));
        insert.bind(6, correlation == INT64_MIN ? std::optional<int64_t>() : std::optional<int64_t>(correlation));
        if (withArgs) insert.bind(7, args);
        else insert.bindNull(7);
        insert.run();
        ++events;
    }
    w.commit();
    const double t1 = now();
    std::printf("%lld %.6f %lld %lld -1 0 -1\n", (long long)events, t1 - t0, (long long)sliceBytes(store),
                (long long)argsBytes(store));
    return 0;
}
#endif

struct Measurement {
    bool ok = false;
    long long events = 0;
    double seconds = 0;
    long long sliceBytes = 0;
    long long argsBytes = 0;
    long peakRssKb = 0;
    long long sessionBytes = 0;
    double maxProgressGapMs = -1;
    long long progressCalls = 0;
    double cancelLatencyMs = -1;
};

// Runs this program again as a child in `mode`, returning its printed figures and its own peak RSS.
Measurement measure(const char *mode, const fs::path &trace, const fs::path &session, long cancelAfterMs = -1) {
    Measurement m;
    const bench::ChildRun run =
        bench::runSelfAsChild({"--child", mode, trace.string(), session.string(), std::to_string(cancelAfterMs)});
    m.peakRssKb = run.peakRssKb;
    m.ok = run.started && std::sscanf(run.out.c_str(), "%lld %lf %lld %lld %lf %lld %lf", &m.events, &m.seconds, &m.sliceBytes,
                                      &m.argsBytes, &m.maxProgressGapMs, &m.progressCalls, &m.cancelLatencyMs) == 7;
    std::error_code ec;
    m.sessionBytes = (long long)fs::file_size(session, ec);
    return m;
}

void report(const char *what, const Measurement &m, double jsonMb, long long traceEvents) {
    if (!m.ok) {
        std::printf("  %-10s failed\n", what);
        return;
    }
    std::printf("  %-10s %9lld slices  %7.3f s  %10.0f trace events/s (%.0f slices/s)  %7.1f MB/s  peak RSS %6.1f MB  "
                "slice+index %5.1f B/slice (+ args %5.1f B/slice)  session %6.1f B/slice\n",
                what, m.events, m.seconds, double(traceEvents) / m.seconds, m.events / m.seconds, jsonMb / m.seconds,
                m.peakRssKb / 1024.0,
                double(m.sliceBytes - m.argsBytes) / double(m.events), double(m.argsBytes) / double(m.events),
                double(m.sessionBytes) / double(m.events));
    if (m.maxProgressGapMs >= 0)
        std::printf("  %-10s longest gap between progress callbacks %.1f ms (%lld callbacks)\n", "", m.maxProgressGapMs,
                    m.progressCalls);
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 6 && std::strcmp(argv[1], "--child") == 0) {
        if (std::strcmp(argv[2], "import") == 0)
            return runImporter(argv[3], argv[4], std::atol(argv[5]));
#ifdef STEPSCOPE_BENCH_SIMDJSON
        if (std::strcmp(argv[2], "reference") == 0 || std::strcmp(argv[2], "lean") == 0)
            return runReference(argv[3], argv[4], std::strcmp(argv[2], "reference") == 0);
#endif
        return 2;
    }
    int64_t events = 1000000;
    fs::path dir = fs::temp_directory_path() / "stepscope-bench-chrome";
    int gzipLevel = 6;
    bool keep = false;
    std::vector<long> cancelAfterMs;  // repeatable
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc) events = std::atoll(argv[++i]);
        else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
        else if (a == "--gzip-level" && i + 1 < argc) gzipLevel = std::atoi(argv[++i]);
        else if (a == "--keep") keep = true;
        else if (a == "--cancel-after-ms" && i + 1 < argc) cancelAfterMs.push_back(std::atol(argv[++i]));
        else {
            std::fprintf(stderr, "usage: %s [--events N] [--dir DIR] [--gzip-level L] [--keep] [--cancel-after-ms N]\n", argv[0]);
            return 1;
        }
    }
    fs::create_directories(dir);
    const fs::path gz = dir / "bench.pt.trace.json.gz";
    const fs::path plain = dir / "bench.pt.trace.json";
    synth::SyntheticProfileOptions options;
    options.targetEvents = events;
    options.gzipLevel = gzipLevel;
    const double g0 = now();
    const synth::SyntheticProfileStats stats = synth::writeTrace(options, gz);
    {
        gzFile in = gzopen(gz.string().c_str(), "rb");
        std::ofstream out(plain, std::ios::binary);
        std::vector<char> buf(1 << 20);
        int n;
        while ((n = gzread(in, buf.data(), unsigned(buf.size()))) > 0)
            out.write(buf.data(), n);
        gzclose(in);
    }
    const double jsonMb = double(stats.uncompressedBytes) / 1e6;
    std::printf("trace: %lld events (%lld steps), %.1f MB JSON, %.1f MB gzip, generated in %.1f s\n",
                (long long)stats.events, (long long)stats.steps, jsonMb, double(stats.compressedBytes) / 1e6, now() - g0);

    for (const fs::path &trace : {gz, plain}) {
        std::printf("%s:\n", trace.filename().c_str());
        const Measurement imp = measure("import", trace, dir / "import.stepscope");
        report("importer", imp, jsonMb, (long long)stats.events);
#ifdef STEPSCOPE_BENCH_SIMDJSON
        const Measurement ref = measure("reference", trace, dir / "reference.stepscope");
        report("reference", ref, jsonMb, (long long)stats.events);
        if (imp.ok && ref.ok)
            std::printf("  ratio importer/reference time: %.2f (target <= 1.0, never > 2.0)\n", imp.seconds / ref.seconds);
        const Measurement lean = measure("lean", trace, dir / "lean.stepscope");
        report("lean ref.", lean, jsonMb, (long long)stats.events);
        if (imp.ok && lean.ok)
            std::printf("  ratio importer/lean reference time: %.2f (target <= 1.5)\n", imp.seconds / lean.seconds);
#else
        std::printf("  reference loop not built: define STEPSCOPE_BENCH_SIMDJSON and link simdjson\n");
#endif
        for (const long cancelMs : cancelAfterMs) {
            const Measurement c = measure("import", trace, dir / "cancel.stepscope", cancelMs);
            if (!c.ok)
                std::printf("  cancel     failed\n");
            else if (c.cancelLatencyMs < 0)
                std::printf("  cancel     import finished before %ld ms: nothing cancelled\n", cancelMs);
            else
                std::printf("  cancel     flag set %ld ms into import(): returned %.1f ms later (peak RSS %.1f MB, "
                            "longest progress gap %.1f ms)\n",
                            cancelMs, c.cancelLatencyMs, c.peakRssKb / 1024.0, c.maxProgressGapMs);
        }
    }
    if (!keep)
        fs::remove_all(dir);
    return 0;
}

// Benchmark of XPlaneImporter and NsysSqliteImporter against ChromeTraceImporter on the same loop.
//
//   bench_import_formats [--events N] [--dir DIR] [--keep]
//
// Generates a Kineto-style trace of ~N events (default 1,000,000) with the synthetic profile
// generator and converts the same loop into an XPlane logdir (writeXPlaneLogdir) and an Nsight
// Systems SQLite export (writeNsysExport). Then, each in a fresh child process (so peak RSS is that
// run's own), imports the .xplane.pb, the .sqlite and the .json.gz into new sessions and prints, per
// importer, slices written, seconds, slices/s, peak RSS and the time per slice against Chrome's.
// Events/s here are timeline slices per second, the unit the importers share (the Chrome file also
// holds metadata and flow events, which the XPlane file expresses as stats and nsys as correlation
// ids; the export holds CUPTI's synchronization records, which the Chrome trace has not).

#include "app/synth/nsys_export_writer.h"
#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_logdir_writer.h"
#include "importers/chrome/chrome_trace_importer.h"
#include "importers/nsys/nsys_sqlite_importer.h"
#include "importers/xplane/xplane_importer.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "models/store/sqlite_statement.h"
#include "tests/bench/bench_child.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Child: imports `file` with the importer named by `mode` into `session`; prints "slices seconds".
int runChild(const std::string &mode, const fs::path &file, const fs::path &session) {
    fs::remove(session);
    const double t0 = now();
    SessionStore store(session);
    SessionWriter w(store);
    w.begin();
    ChromeTraceImporter chrome;
    XPlaneImporter xplane;
    NsysSqliteImporter nsys;
    Importer &imp = mode == "xplane" ? static_cast<Importer &>(xplane)
                    : mode == "nsys" ? static_cast<Importer &>(nsys)
                                     : static_cast<Importer &>(chrome);
    const int64_t src = w.addSource(file.string(), imp.format(), int64_t(fs::file_size(file)));
    ImportContext ctx(w, src, file.string());
    const ImportResult r = imp.import(file, ctx);
    w.finishSource(src, r.events, ctx.warnings(), r.status);
    w.commit();
    const double seconds = now() - t0;
    SqliteStatement count(store.db(), "SELECT count(*) FROM slice");  // events also counts metric samples
    std::printf("%lld %.6f %lld\n", count.step() ? static_cast<long long>(count.columnInt(0)) : 0LL, seconds,
                static_cast<long long>(r.events));
    return r.status == SourceStatus::Ok ? 0 : 3;
}

struct Measurement {
    bool ok = false;
    long long slices = 0;
    long long events = 0;  // slices and metric samples
    double seconds = 0;
    long peakRssKb = 0;
};

Measurement measure(const char *mode, const fs::path &file, const fs::path &session) {
    Measurement m;
    const bench::ChildRun run = bench::runSelfAsChild({"--child", mode, file.string(), session.string()});
    m.peakRssKb = run.peakRssKb;
    m.ok = run.started && std::sscanf(run.out.c_str(), "%lld %lf %lld", &m.slices, &m.seconds, &m.events) == 3;
    return m;
}

void report(const char *what, const Measurement &m, const fs::path &file) {
    if (!m.ok) {
        std::printf("  %-7s failed\n", what);
        return;
    }
    std::error_code ec;
    std::printf("  %-7s %9lld slices %9lld events  %7.3f s  %10.0f slices/s  file %7.1f MB  peak RSS %6.1f MB\n", what,
                m.slices, m.events, m.seconds, double(m.slices) / m.seconds, double(fs::file_size(file, ec)) / 1e6, m.peakRssKb / 1024.0);
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 5 && std::strcmp(argv[1], "--child") == 0)
        return runChild(argv[2], argv[3], argv[4]);
    long long events = 1'000'000;
    fs::path dir = fs::temp_directory_path() / "stepscope-bench-formats";
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::atoll(argv[++i]);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--keep")
            keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--events N] [--dir DIR] [--keep]\n", argv[0]);
            return 1;
        }
    }
    fs::create_directories(dir);
    synth::SyntheticProfileOptions o;
    o.targetEvents = events;
    o.gzipLevel = 1;
    const fs::path chrome = dir / "bench.pt.trace.json.gz";
    const double g0 = now();
    const synth::SyntheticProfileStats st = synth::SyntheticProfileGenerator(o).generate(chrome, {});
    const synth::XPlaneLogdirResult x = synth::writeXPlaneLogdir(o, dir / "logdir", {}, chrome);
    const synth::NsysExportResult n = synth::writeNsysExport(o, dir / "bench.sqlite", chrome);
    std::printf("generated in %.1f s: chrome %lld trace events (%d steps x %d kernels), xplane %lld events, %.1f MB, "
                "nsys %lld rows + %lld metric samples\n",
                now() - g0, static_cast<long long>(st.events), int(st.steps), st.kernelsPerStep,
                static_cast<long long>(x.xplane.events), double(x.xplane.bytes) / 1e6, static_cast<long long>(n.rows),
                static_cast<long long>(n.metricSamples));
    const Measurement mx = measure("xplane", x.file, dir / "xplane.stepscope");
    const Measurement mn = measure("nsys", n.file, dir / "nsys.stepscope");
    const Measurement mc = measure("chrome", chrome, dir / "chrome.stepscope");
    report("xplane", mx, x.file);
    report("nsys", mn, n.file);
    report("chrome", mc, chrome);
    const auto perSlice = [](const Measurement &m) { return m.seconds / double(m.slices); };
    if (mx.ok && mc.ok)
        std::printf("  xplane/chrome time per slice: %.2f (below 1 = xplane faster)\n", perSlice(mx) / perSlice(mc));
    if (mn.ok && mc.ok)
        std::printf("  nsys/chrome time per slice: %.2f, per event (slices and GPU metric samples): %.2f (target <= 1.5)\n",
                    perSlice(mn) / perSlice(mc), (mn.seconds / double(mn.events)) / (mc.seconds / double(mc.events)));
    if (!keep)
        fs::remove_all(dir);
    return mx.ok && mn.ok && mc.ok ? 0 : 2;
}

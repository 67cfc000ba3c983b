// bench_timeline: timeline frame times over generated 1 M- (and, with --10m, 10 M-) event sessions.
// Builds the session once through SessionWriter (kept in --dir for later runs), measures the first
// open (which builds the level-of-detail cache), the re-open, memory per event, and offscreen frames
// at several zoom levels while panning and zooming. Prints median / p95 / max per scenario.
//
//   bench_timeline [--10m] [--events N] [--dir DIR] [--width W] [--height H] [--profile FRAMES]
#include "models/qt/session_models.h"
#include "tests/timeline/timeline_fixture.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {
double rssMb() {
    std::ifstream f("/proc/self/statm");
    long pages = 0, resident = 0;
    f >> pages >> resident;
    return double(resident) * 4096.0 / (1024.0 * 1024.0);
}

struct Stats { double median, p95, max; };
Stats stats(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, size_t(double(v.size()) * 0.95))], v.back()};
}

fs::path ensureSession(const fs::path &dir, int64_t events) {
    fs::create_directories(dir);
    const fs::path file = dir / ("bench_timeline_" + std::to_string(events) + ".stepscope");
    if (fs::exists(file)) {
        SessionStore s(file);
        SqliteStatement st(s.db(), "SELECT count(*) FROM slice");
        if (st.step() && st.columnInt(0) >= events * 95 / 100) return file;
    }
    fs::remove(file);
    fs::remove(file.string() + "-wal");
    fs::remove(file.string() + "-shm");
    test::TimelineFixtureSpec spec;
    spec.opsPerStep = 2000;                        // ~6,000 events per 20 ms step
    spec.steps = int(std::max<int64_t>(1, events / (3 * spec.opsPerStep + 4)));
    QElapsedTimer t;
    t.start();
    SessionStore store(file);
    const auto info = test::writeTimelineFixture(store, spec);
    std::printf("  wrote %lld slices in %.1f s -> %s\n", (long long)info.slices, t.elapsed() / 1000.0, file.c_str());
    return file;
}

int g_profileFrames = 0;  // --profile N: only N whole-run pan frames after opening (for perf)

void runSession(const fs::path &file, QSize size) {
    double rss0 = rssMb();
    QElapsedTimer clock;
    if (!g_profileFrames) {
        // First open after the import builds the cache (once); drop the cache to measure that.
        SessionStore store(file);
        sqliteExec(store.db(), "DELETE FROM timeline_lod_state");
        TimelineModel model;
        clock.start();
        model.load(&store);
        std::printf("  first open (builds level-of-detail cache): %.0f ms\n", clock.nsecsElapsed() / 1e6);
    }
    rss0 = rssMb();
    clock.restart();
    auto store = std::make_unique<SessionStore>(file);
    TimeRangeController time;
    TimelineView view(SessionModels::of(nullptr, &time));
    view.model()->load(store.get());
    time.setFullRange(view.model()->extent());
    const double openMs = clock.nsecsElapsed() / 1e6;
    const int64_t events = view.model()->sliceCount();
    std::printf("  re-open (ready to draw): %.0f ms for %lld events\n", openMs, (long long)events);
    std::printf("  model memory: %.1f MB (%.2f B/event); process RSS growth %.1f MB (%.2f B/event)\n",
                view.model()->memoryBytes() / 1e6, double(view.model()->memoryBytes()) / double(events),
                rssMb() - rss0, (rssMb() - rss0) * 1024 * 1024 / double(events));

    view.resize(size);
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    // One frame as the event loop runs it: deliver what the background loader finished (installing
    // windows is GUI-thread work too, so it is timed), then paint.
    auto frame = [&] {
        QElapsedTimer t;
        t.start();
        QCoreApplication::processEvents();
        view.render(&img);
        return t.nsecsElapsed() / 1e6;
    };
    const NsRange full = view.model()->extent();
    if (g_profileFrames) {
        std::vector<double> times;
        time.setRange(full);
        for (int i = 0; i < g_profileFrames; ++i) {
            const NsRange r = time.range();
            const int64_t d = (i / 20 % 2 ? -1 : 1) * r.duration() / 20;
            time.setRange({r.start + d, r.end + d}, false);
            times.push_back(frame());
            if (times.back() > 8) std::printf("    slow frame %d: %.1f ms\n", i, times.back());
        }
        const Stats st = stats(times);
        std::printf("  profile: %d whole-run pan frames: median %.2f ms  p95 %.2f ms  max %.2f ms\n", g_profileFrames, st.median, st.p95, st.max);
        return;
    }
    struct Scenario { const char *name; int64_t span; };
    const int64_t mid = full.start + full.duration() / 2;
    const Scenario scenarios[] = {{"whole run", full.duration()}, {"10% of run", full.duration() / 10},
                                  {"one step (20 ms)", 20'000'000}, {"1 ms", 1'000'000}, {"100 us (kernels)", 100'000}};
    std::vector<double> all;
    for (const Scenario &s : scenarios) {
        std::vector<double> times;
        time.setRange({mid - s.span / 2, mid + s.span / 2});
        for (int i = 0; i < 40; ++i) {  // pan by 5% of the span per frame
            const NsRange r = time.range();
            const int64_t d = (i / 20 % 2 ? -1 : 1) * r.duration() / 20;
            time.setRange({r.start + d, r.end + d}, false);
            times.push_back(frame());
            if (times.back() > 50 && qEnvironmentVariableIsSet("BENCH_VERBOSE"))
                std::printf("    slow frame %d of %s: %.1f ms\n", i, s.name, times.back());
        }
        const Stats st = stats(times);
        all.insert(all.end(), times.begin(), times.end());
        std::printf("  %-18s pan:  median %6.2f ms  p95 %6.2f ms  max %6.2f ms\n", s.name, st.median, st.p95, st.max);
    }
    std::vector<double> zoom;
    time.setRange(full);
    for (int i = 0; i < 60; ++i) {  // wheel-zoom from the whole run to ~50 µs at the middle
        view.zoomBy(0.8, mid);
        zoom.push_back(frame());
        if (zoom.back() > 30 && qEnvironmentVariableIsSet("BENCH_VERBOSE"))
            std::printf("    slow zoom frame %d span %lld: %.1f ms\n", i, (long long)time.range().duration(), zoom.back());
    }
    for (int i = 0; i < 60; ++i) {
        view.zoomBy(1.25, mid + 3'000'000);
        zoom.push_back(frame());
        if (zoom.back() > 30 && qEnvironmentVariableIsSet("BENCH_VERBOSE"))
            std::printf("    slow zoom-out frame %d span %lld: %.1f ms\n", i, (long long)time.range().duration(), zoom.back());
    }
    // How long exact slices take to replace the summary after a jump (a "go to" or a click on the
    // overview): frames keep coming meanwhile, this is the wait for full detail.
    std::vector<double> detail;
    for (int i = 0; i < 20; ++i) {
        const int64_t at = full.start + full.duration() / 23 * (i + 1);
        time.setRange({at, at + 200'000});
        QElapsedTimer t;
        t.start();
        view.render(&img);
        while (view.model()->detailPending() && t.elapsed() < 5000) {
            view.model()->finishLoading(1);
            QCoreApplication::processEvents();
        }
        view.render(&img);
        detail.push_back(t.nsecsElapsed() / 1e6);
    }
    const Stats ds = stats(detail);
    std::printf("  exact detail after a jump (200 us view): median %.1f ms, max %.1f ms (frames meanwhile from summaries)\n",
                ds.median, ds.max);
    const Stats zs = stats(zoom);
    all.insert(all.end(), zoom.begin(), zoom.end());
    std::printf("  %-18s       median %6.2f ms  p95 %6.2f ms  max %6.2f ms\n", "zoom in/out", zs.median, zs.p95, zs.max);
    const Stats as = stats(all);
    std::printf("  ALL %zu frames (%dx%d): median %.2f ms, p95 %.2f ms, max %.2f ms\n", all.size(), size.width(),
                size.height(), as.median, as.p95, as.max);
}
} // namespace

int main(int argc, char **argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<int64_t> sizes{1'000'000};
    fs::path dir = fs::temp_directory_path() / "stepscope-bench";
    QSize size(1600, 900);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--10m") sizes.push_back(10'000'000);
        else if (a == "--events" && i + 1 < argc) sizes = {std::stoll(argv[++i])};
        else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
        else if (a == "--width" && i + 1 < argc) size.setWidth(std::stoi(argv[++i]));
        else if (a == "--height" && i + 1 < argc) size.setHeight(std::stoi(argv[++i]));
        else if (a == "--profile" && i + 1 < argc) g_profileFrames = std::stoi(argv[++i]);
        else { std::fprintf(stderr, "usage: bench_timeline [--10m] [--events N] [--dir DIR] [--width W] [--height H]\n"); return 1; }
    }
    for (int64_t n : sizes) {
        std::printf("== %lld events\n", (long long)n);
        runSession(ensureSession(dir, n), size);
    }
    return 0;
}

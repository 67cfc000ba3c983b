// Benchmark: the utilization view over a week of 100 ms samples × 16 series (≈ 97 M samples, float
// values + int64 times in memory). Measures the memory it takes, the LOD build, and frame times
// (median, p95, max) for zoom and pan gestures. A frame is what the user sees after one range
// change: the view fetches per-pixel buckets for every series, replots every panel (one replot,
// counted), Qt paints it, and the whole view is rendered into an offscreen image (QWidget::render
// into an image kept between frames, as a window's backing store is). Each frame is
// checked afterwards (not timed): every graph must hold the true min and max of its samples in the
// shown range, so a faster frame cannot come from drawing less data.
//
//   QT_QPA_PLATFORM=offscreen bench_utilization [--days D] [--series N] [--width W] [--height H]
//                                               [--png PREFIX]   (writes PREFIX-week/-hour/-minute/-seconds.png)

#include "models/metrics/metric_series_model.h"
#include "views/utilization/utilization_view.h"

#include <QApplication>
#include <QImage>
#include <qcustomplot.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

using namespace stepscope;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// CPU time of this thread: the frame cost without other processes' share of a busy machine.
double cpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

long rssMiB() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6)) / 1024;
    return -1;
}

void report(const std::string &what, std::vector<double> t) {
    std::sort(t.begin(), t.end());
    std::printf("  %-46s median %7.2f ms   p95 %7.2f ms   max %7.2f ms   (%zu frames)\n", what.c_str(), t[t.size() / 2],
                t[std::min(t.size() - 1, t.size() * 95 / 100)], t.back(), t.size());
}

std::vector<MetricSeries> makeWeek(int days, int count) {
    const int64_t n = int64_t(days) * 86400 * 10;
    const char *names[] = {"gpu_util", "gpu_mem_used", "cpu_util", "net_in", "net_out", "disk_read", "disk_write", "host_mem_used"};
    std::vector<MetricSeries> out;
    uint64_t rng = 88172645463325252ULL;
    for (int s = 0; s < count; ++s) {
        std::vector<int64_t> t(static_cast<size_t>(n));
        std::vector<float> v(static_cast<size_t>(n));
        double x = 50;
        for (int64_t i = 0; i < n; ++i) {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
            t[size_t(i)] = 1'700'000'000'000'000'000 + i * 100'000'000 + int64_t(rng % 1000);  // jitter
            x = std::clamp(x + double(int64_t(rng % 2001) - 1000) / 200.0, 0.0, 100.0);
            v[size_t(i)] = float(x);
        }
        const std::string name = names[s < 8 ? 0 : s % 8];
        MetricSeriesInfo info{s + 1, 1, "bench", name, name == "gpu_util" ? "%" : "B/s",
                              name == "gpu_util" ? std::optional<int64_t>(s % 8) : std::nullopt, 100'000'000, {}};
        out.push_back({info, MetricLod(std::move(t), std::move(v))});
    }
    return out;
}

// Every graph holds exactly the min and max of its series' samples in the shown range (plus the
// one neighbour either side that runs the line to the edges): the frame shows all the data.
// Returns the number of graphs that do not.
int graphsMissingData(const UtilizationView &view, const MetricSeriesModel &model, NsRange range) {
    int missing = 0;
    for (size_t p = 0; p < view.panels().size(); ++p)
        for (size_t i = 0; i < view.panels()[p].series.size(); ++i) {
            const int s = view.panels()[p].series[i];
            const MetricLod &lod = model.series(s).lod;
            const MetricStats want = lod.statsOfIndices(lod.lowerIndex(range.start) - 1, lod.lowerIndex(range.end) + 1);
            const double divisor = view.panelScale(p).divisor;
            bool found = false;
            // A panel's graphs: one per series in its order (then a grouped panel's means, capacity lines).
            const QCPRange got = view.plot()->axisRects().at(int(p))->graphs().at(int(i))->data()->valueRange(found);
            const auto same = [](double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); };
            if (want.count > 0 && (!found || !same(got.lower, want.min / divisor) || !same(got.upper, want.max / divisor))) ++missing;
        }
    return missing;
}

} // namespace

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // figures appear as they are measured
    // The offscreen platform notes every layout change of a top-level widget; not a finding here.
    static const QtMessageHandler defaultHandler = qInstallMessageHandler(nullptr);
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &context, const QString &text) {
        if (!text.contains(QLatin1String("propagateSizeHints"))) defaultHandler(type, context, text);
    });
    QApplication app(argc, argv);
    int days = 7, series = 16, width = 1600, height = 900;
    std::string pngPrefix;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--days")) days = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--series")) series = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--width")) width = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--height")) height = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--png")) pngPrefix = argv[++i];
    }
    const long rss0 = rssMiB();
    const auto t0 = Clock::now();
    MetricSeriesModel model;
    model.setSeries(makeWeek(days, series));
    const auto t1 = Clock::now();
    std::printf("utilization benchmark: %d series x %d days of 100 ms samples = %lld samples\n", series, days,
                static_cast<long long>(model.sampleCount()));
    std::printf("  generate + LOD build: %.0f ms; model memory %.0f MiB (%.2f B/sample); process RSS +%ld MiB\n", ms(t1 - t0),
                double(model.memoryBytes()) / 1048576.0, double(model.memoryBytes()) / double(model.sampleCount()),
                rssMiB() - rss0);

    TimeRangeController time;
    time.setFullRange(model.extent());
    UtilizationView view(&model, &time);
    view.resize(width, height);
    view.show();
    app.processEvents();
    view.refresh();
    app.processEvents();
    const int px = view.plot()->axisRects().front()->width();
    int points = 0;
    for (int g = 0; g < view.plot()->graphCount(); ++g) points += view.plot()->graph(g)->data()->size();
    std::printf("  view %dx%d: %d panels, %d graphs, %d px plot width, %d points handed to QCustomPlot at the full week\n",
                width, height, int(view.panels().size()), view.plot()->graphCount(), px, points);
    int replots = 0;
    Clock::time_point replotStart;
    double replotMs = 0;  // of the last replot
    QObject::connect(view.plot(), &QCustomPlot::beforeReplot, [&] { replotStart = Clock::now(); });
    QObject::connect(view.plot(), &QCustomPlot::afterReplot, [&] {
        ++replots;
        replotMs = ms(Clock::now() - replotStart);
    });

    // Gestures: zoom from the whole week to 10 s around a point and back (wheel steps of 0.8x),
    // then pans at three zoom levels.
    std::vector<NsRange> zoom, pan;
    const NsRange full = model.extent();
    const int64_t anchor = full.start + full.duration() * 3 / 7;
    for (double w = double(full.duration()); w > 10e9; w *= 0.8) zoom.push_back({anchor - int64_t(w / 2), anchor + int64_t(w / 2)});
    for (size_t i = zoom.size(); i-- > 0;) zoom.push_back(zoom[i]);
    for (double w : {double(full.duration()) / 2, 3600e9, 60e9})
        for (int k = 0; k < 60; ++k) {
            const int64_t start = full.start + int64_t(double(full.duration() - int64_t(w)) * k / 60);
            pan.push_back({start, start + int64_t(w)});
        }

    // One frame: a range change as the wheel or a drag makes it, then what reaches the screen,
    // composed into one image of the whole view (kept between frames, as a window's backing store is).
    QImage shown(view.size(), QImage::Format_ARGB32_Premultiplied);
    const auto frame = [&](NsRange r) {
        time.setRange(r, false);  // the view fetches its points
        app.processEvents();      // its replot runs (once, however many range changes came)
        view.render(&shown);      // and every panel is composed into the view's image
    };
    {
        std::vector<double> base;
        for (int k = 0; k < 20; ++k) {
            const auto a = Clock::now();
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            base.push_back(ms(Clock::now() - a));
        }
        report("replot only, full week, points unchanged", base);
    }
    int badFrames = 0, replotMismatch = 0;
    for (const auto &[name, ranges] : {std::pair{"zoom", zoom}, std::pair{"pan", pan}}) {
        std::vector<double> fetch, wall, cpu, replot;
        for (const NsRange &r : ranges) {
            const NsRange old = time.range();
            const int before = replots;
            auto a = Clock::now();
            const double c = cpuMs();
            frame(r);
            if (time.range() == old) continue;  // the range was already shown (clamped): no frame
            wall.push_back(ms(Clock::now() - a));
            cpu.push_back(cpuMs() - c);
            replot.push_back(replotMs);
            if (replots - before != 1) ++replotMismatch;
            if (graphsMissingData(view, model, r) > 0) ++badFrames;
            // The model's part of the frame, measured again now that the range is in the cache.
            a = Clock::now();
            for (int s = 0; s < model.count(); ++s) (void)model.buckets(s, r, px);
            fetch.push_back(ms(Clock::now() - a));
        }
        report(std::string(name) + ": bucket fetch, all series (warm)", fetch);
        report(std::string(name) + ": frame (range change to image), wall", wall);
        report(std::string(name) + ": frame, thread CPU time", cpu);
        report(std::string(name) + ":   of which the replot (wall)", replot);
    }
    std::printf("  checks: %d frames missing data, %d frames without exactly one replot\n", badFrames, replotMismatch);

    if (!pngPrefix.empty()) {
        // Still frames to look at: a week, an hour, a minute and 12 s (a dot per sample), with a
        // selection and the crosshair.
        const struct { const char *name; double seconds; } shots[] = {{"week", 0}, {"hour", 3600}, {"minute", 60}, {"seconds", 12}};
        for (const auto &shot : shots) {
            const int64_t w = shot.seconds > 0 ? int64_t(shot.seconds * 1e9) : full.duration();
            const NsRange r = shot.seconds > 0 ? NsRange{anchor - w / 2, anchor + w / 2} : full;
            time.setRange(r, false);
            time.setSelection({r.start + w / 5, r.start + w * 2 / 5});
            view.showCrosshair(r.start + w * 3 / 4);
            const std::string file = pngPrefix + "-" + shot.name + ".png";
            frame(r);
            const bool ok = shown.save(QString::fromStdString(file));
            std::printf("  %s %s\n", ok ? "wrote" : "could not write", file.c_str());
        }
    }
    std::printf("  peak RSS %ld MiB\n", rssMiB());
    return badFrames + replotMismatch > 0 ? 1 : 0;
}

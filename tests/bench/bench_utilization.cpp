// Benchmark: the utilization view over a week of 100 ms samples × 16 series (≈ 97 M samples, float
// values + int64 times in memory). Measures the memory it takes, the LOD build, and frame times
// (median, p95) for zoom and pan gestures: model bucket fetch alone, and fetch + QCustomPlot replot
// of the whole stacked view into its offscreen buffer. Usage:
//   QT_QPA_PLATFORM=offscreen bench_utilization [--days D] [--series N] [--width W]

#include "models/metrics/metric_series_model.h"
#include "views/utilization/utilization_view.h"

#include <QApplication>
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

void report(const char *what, std::vector<double> t) {
    std::sort(t.begin(), t.end());
    std::printf("  %-44s median %7.2f ms   p95 %7.2f ms   max %7.2f ms   (%zu frames)\n", what, t[t.size() / 2],
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

} // namespace

int main(int argc, char **argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // figures appear as they are measured
    QApplication app(argc, argv);
    int days = 7, series = 16, width = 1600;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--days")) days = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--series")) series = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--width")) width = std::atoi(argv[++i]);
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
    view.resize(width + 260, 1000);
    view.show();
    app.processEvents();
    view.refresh();
    const int px = view.plot()->axisRects().front()->width();
    std::printf("  view: %d panels, %d graphs, %d px plot width\n", int(view.panels().size()), view.plot()->graphCount(), px);

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

    {
        // The fixed cost of a frame: replot with unchanged points (axes, grid, legends, text).
        std::vector<double> base, points;
        for (int k = 0; k < 20; ++k) {
            auto a = Clock::now();
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            base.push_back(ms(Clock::now() - a));
        }
        report("replot only, points unchanged", base);
    }
    for (const auto &[name, ranges] : {std::pair{"zoom", zoom}, std::pair{"pan", pan}}) {
        std::vector<double> fetch, frame, frameCpu;
        for (const NsRange &r : ranges) {
            auto a = Clock::now();
            for (int s = 0; s < model.count(); ++s) (void)model.buckets(s, r, px);
            fetch.push_back(ms(Clock::now() - a));
            a = Clock::now();
            const double c = cpuMs();
            time.setRange(r, false);  // the view fetches its points
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);  // and draws every panel
            frame.push_back(ms(Clock::now() - a));
            frameCpu.push_back(cpuMs() - c);
        }
        report((std::string(name) + ": bucket fetch, all series").c_str(), fetch);
        report((std::string(name) + ": full frame (fetch + replot), wall").c_str(), frame);
        report((std::string(name) + ": full frame, thread CPU time").c_str(), frameCpu);
    }
    std::printf("  peak RSS %ld MiB\n", rssMiB());
    return 0;
}

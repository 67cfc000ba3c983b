// SeriesPlotData and what UtilizationView hands to QCustomPlot: zoomed out, each pixel column gets
// exactly two points, the true min and max of the samples in that column (brute force), inside
// the column; the view's graphs take those points as they are (no adaptive sampling of their own)
// and draw dense lines with ColumnEnvelopeGraph.

#include "views/utilization/column_envelope_graph.h"
#include "views/utilization/series_plot_data.h"
#include "views/utilization/utilization_view.h"

#include <QtTest>

#include <random>

using namespace stepscope;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kPeriod = 100'000'000;

// A noisy walk every 100 ms with jitter and a 10-minute hole.
MetricSeries noisySeries(int n) {
    std::mt19937_64 rng(3);
    std::vector<int64_t> t;
    std::vector<float> v;
    float x = 50;
    for (int i = 0; i < n; ++i) {
        if (i > n / 2 && i < n / 2 + 6000) continue;
        t.push_back(kT0 + int64_t(i) * kPeriod + int64_t(rng() % 1000));
        x = std::clamp(x + float(int(rng() % 21) - 10), 0.0f, 100.0f);
        v.push_back(x);
    }
    return {{1, 1, "host", "gpu_util", "%", 0, kPeriod, {}}, MetricLod(std::move(t), std::move(v))};
}

} // namespace

class TstSeriesPlotData : public QObject {
    Q_OBJECT
private slots:
    // The mean across ranks, one point per pixel column: sparse series by their value at the
    // column's middle, dense ones by the mean of their samples in the column; a series in a gap is
    // left out of the mean, and columns where every series is in a gap break the line.
    void meanOfSeveralSeries() {
        const auto constant = [](int64_t id, int64_t period, int n, float value, int64_t from) {
            std::vector<int64_t> t;
            std::vector<float> v;
            for (int i = 0; i < n; ++i) {
                t.push_back(from + int64_t(i) * period);
                v.push_back(value);
            }
            return MetricSeries{{id, 1, "rank-" + std::to_string(id), "gpu_util", "%", 0, period, {}}, MetricLod(std::move(t), std::move(v))};
        };
        MetricSeriesModel model;
        // 0: 10 % every 100 ms for 100 s; 1: 30 % every 10 s for 100 s; 2: 80 % every 100 ms for the first 50 s only.
        model.setSeries({constant(1, kPeriod, 1000, 10, kT0), constant(2, 10'000'000'000, 10, 30, kT0 + 10'000'000'000),
                         constant(3, kPeriod, 500, 80, kT0)});
        const NsRange all{kT0, kT0 + 100'000'000'000};
        const SeriesPlotData::Result mean = SeriesPlotData::meanOf(model, {0, 1, 2}, all, 200, kT0, 1);
        QCOMPARE(mean.points.size(), 200);
        QVERIFY(!mean.stepped);
        QCOMPARE(mean.points[10].key, 5.25);  // the middle of column 10 (0.5 s wide), seconds from kT0
        QCOMPARE(mean.points[10].value, 40.0);  // (10 + 30 + 80) / 3
        QCOMPARE(mean.points[150].value, 20.0);  // series 2 has ended more than 3 periods before: (10 + 30) / 2
        // Divided into the panel's unit; a range past every series: no value, the line broken.
        QCOMPARE(SeriesPlotData::meanOf(model, {0, 1}, all, 200, kT0, 10).points[10].value, 2.0);
        const SeriesPlotData::Result after = SeriesPlotData::meanOf(model, {0, 2}, {kT0 + 200'000'000'000, kT0 + 300'000'000'000}, 50, kT0, 1);
        for (const QCPGraphData &p : after.points) QVERIFY(std::isnan(p.value));
        QVERIFY(SeriesPlotData::meanOf(model, {}, all, 200, kT0, 1).points.isEmpty());
    }

    // A series of changes (allocator totals, no sampling period): each value holds until the next,
    // whatever the zoom: steps to the left when sparse, no breaks and the held value in columns
    // without a sample when dense.
    void changesHoldTheirValue() {
        std::vector<int64_t> t;
        std::vector<float> v;
        for (int k = 0; k < 200; ++k) {  // a 1 ms spike every 10 s
            t.push_back(kT0 + int64_t(k) * 10'000'000'000);
            v.push_back(3);
            t.push_back(kT0 + int64_t(k) * 10'000'000'000 + 5'000'000'000);
            v.push_back(9);
            t.push_back(kT0 + int64_t(k) * 10'000'000'000 + 5'001'000'000);
            v.push_back(3);
        }
        const MetricSeries series{{1, 1, "host", "gpu_mem_allocated", "B", 0, 0, {}}, MetricLod(std::move(t), std::move(v))};
        const NsRange all{kT0, kT0 + 2'000'000'000'000};
        const SeriesPlotData::Result dense = SeriesPlotData::make(series, all, 400, kT0, 1);
        QVERIFY(dense.holds);
        QVERIFY(!dense.stepped);
        double lo = 1e9, hi = -1e9;
        for (const QCPGraphData &p : dense.points) {
            QVERIFY2(!std::isnan(p.value), "a held value never breaks the line");
            lo = std::min(lo, p.value);
            hi = std::max(hi, p.value);
        }
        QCOMPARE(lo, 3.0);
        QCOMPARE(hi, 9.0);
        QVERIFY(dense.points.size() >= 400);  // every column has a point
        const SeriesPlotData::Result sparse = SeriesPlotData::make(series, {kT0, kT0 + 30'000'000'000}, 800, kT0, 1);
        QVERIFY(sparse.holds && sparse.stepped);
        for (const QCPGraphData &p : sparse.points) QVERIFY(!std::isnan(p.value));
        // A sampled series (period > 0) keeps its period semantics and gaps.
        QVERIFY(!SeriesPlotData::make(noisySeries(1000), {kT0, kT0 + 1000 * kPeriod}, 400, kT0, 1).holds);
    }

    void eachColumnHoldsItsTrueMinAndMax() {
        const MetricSeries series = noisySeries(200'000);
        const auto &t = series.lod.times();
        const auto &v = series.lod.values();
        for (const int width : {97, 640, 1333}) {
            const NsRange range{kT0 + 1234 * kPeriod, kT0 + 187'654 * kPeriod};
            const int64_t origin = kT0;
            const double divisor = 2;
            const SeriesPlotData::Result r = SeriesPlotData::make(series, range, width, origin, divisor);
            QVERIFY(!r.stepped);
            const double pxNs = double(range.duration()) / width;
            const auto columnOfKey = [&](double key) { return int(std::floor((key * 1e9 - double(range.start - origin)) / pxNs)); };
            // The samples of each column, by the buckets' rule.
            std::vector<float> lo(size_t(width), 1e30f), hi(size_t(width), -1e30f);
            const long double step = (long double)range.duration() / width;
            for (size_t i = 0; i < t.size(); ++i) {
                if (t[i] < range.start || t[i] >= range.end) continue;
                int k = int((long double)(t[i] - range.start) / step);
                while (k + 1 < width && t[i] >= range.start + int64_t(step * (long double)(k + 1))) ++k;
                while (k > 0 && t[i] < range.start + int64_t(step * (long double)k)) --k;
                lo[size_t(k)] = std::min(lo[size_t(k)], v[i]);
                hi[size_t(k)] = std::max(hi[size_t(k)], v[i]);
            }
            std::vector<std::vector<double>> values(static_cast<size_t>(width));
            for (const QCPGraphData &p : r.points) {
                if (std::isnan(p.value)) continue;
                const int k = columnOfKey(p.key);
                if (k < 0 || k >= width) continue;  // the neighbours outside that run the line to the edges
                values[size_t(k)].push_back(p.value * divisor);
            }
            int columnsWithSamples = 0;
            for (int k = 0; k < width; ++k) {
                const auto &got = values[size_t(k)];
                if (lo[size_t(k)] > hi[size_t(k)]) {
                    QVERIFY2(got.empty(), qPrintable(QStringLiteral("width %1 column %2 has no samples").arg(width).arg(k)));
                    continue;
                }
                ++columnsWithSamples;
                QCOMPARE(int(got.size()), 2);
                QCOMPARE(*std::min_element(got.begin(), got.end()), double(lo[size_t(k)]));
                QCOMPARE(*std::max_element(got.begin(), got.end()), double(hi[size_t(k)]));
            }
            QVERIFY(columnsWithSamples > width * 9 / 10);
        }
    }

    void viewHandsThePointsToItsGraphsUnchanged() {
        MetricSeriesModel metrics;
        std::vector<MetricSeries> list;
        list.push_back(noisySeries(100'000));
        metrics.setSeries(std::move(list));
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(1000, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        QCPGraph *graph = view.plot()->graph(0);
        QVERIFY(qobject_cast<ColumnEnvelopeGraph *>(graph));
        QVERIFY(!graph->adaptiveSampling());
        QCOMPARE(graph->lineStyle(), QCPGraph::lsLine);
        const int width = view.plot()->axisRects().front()->width();
        const SeriesPlotData::Result want =
            SeriesPlotData::make(metrics.series(0), view.shownRange(), width, view.originNs(), view.panelScale(0).divisor);
        QCOMPARE(graph->data()->size(), int(want.points.size()));
        for (int i = 0; i < want.points.size(); ++i) {
            const double a = graph->data()->at(i)->value, b = want.points[i].value;
            QVERIFY((std::isnan(a) && std::isnan(b)) || a == b);
        }
    }
};

QTEST_MAIN(TstSeriesPlotData)
#include "tst_series_plot_data.moc"

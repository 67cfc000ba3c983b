// UtilizationView, offscreen: it follows the shared TimeRangeController without re-emitting, a
// mouse drag publishes a selection whose min/mean/max are exact, hovering reports each series'
// value at the instant, and a generated training session (trace + nvidia-smi, 4 GPUs) renders to
// a PNG with the expected panels (test-output/utilization_demo.png, looked at by a person).

#include "tests/test_support.h"
#include "tests/utilization/utilization_fixture.h"
#include "models/annotations/annotation_model.h"
#include "views/utilization/range_stats_table.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;  // an epoch instant
constexpr int64_t kSec = 1'000'000'000;

// GPU 0 utilization: one sample per second, value = i % 101; host memory: 1 GiB * (1 + i % 7).
std::vector<MetricSeries> knownSeries(int n) {
    std::vector<int64_t> t(static_cast<size_t>(n));
    std::vector<float> util(static_cast<size_t>(n)), mem(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        t[size_t(i)] = kT0 + int64_t(i) * kSec;
        util[size_t(i)] = float(i % 101);
        mem[size_t(i)] = float(1073741824.0 * (1 + i % 7));
    }
    MetricSeries gpu{{1, 1, "host", "gpu_util", "%", 0, kSec, {}}, MetricLod(t, util)};
    MetricSeries host{{2, 1, "host", "host_mem_used", "B", std::nullopt, kSec, {}}, MetricLod(t, mem)};
    std::vector<MetricSeries> out;
    out.push_back(std::move(gpu));
    out.push_back(std::move(host));
    return out;
}

MetricStats bruteStats(const std::vector<MetricSeries> &s, int i, NsRange r) {
    MetricStats st;
    double sum = 0;
    const auto &t = s[size_t(i)].lod.times();
    const auto &v = s[size_t(i)].lod.values();
    for (size_t k = 0; k < t.size(); ++k) {
        if (t[k] < r.start || t[k] >= r.end) continue;
        const double x = v[k];
        st.min = st.count ? std::min(st.min, x) : x;
        st.max = st.count ? std::max(st.max, x) : x;
        sum += x;
        ++st.count;
    }
    st.mean = st.count ? sum / double(st.count) : 0;
    return st;
}

} // namespace

class TstUtilizationView : public QObject {
    Q_OBJECT
private slots:
    void rangeFromControllerApplies() {
        MetricSeriesModel metrics;
        metrics.setSeries(knownSeries(3600));
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(int(view.panels().size()), 2);
        QCOMPARE(view.panels()[0].key, QStringLiteral("gpu_util"));
        QCOMPARE(view.panels()[1].key, QStringLiteral("host_mem"));

        QSignalSpy ranges(&time, &TimeRangeController::rangeChanged);
        const NsRange r{kT0 + 600 * kSec, kT0 + 900 * kSec};
        time.setRange(r);
        QCOMPARE(ranges.count(), 1);  // the view applied it without emitting another
        QCOMPARE(view.shownRange(), r);
        for (QCPAxisRect *rect : view.plot()->axisRects()) {
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().lower, 600.0);
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().upper, 900.0);
        }
        // 300 samples over ~700 px: raw samples drawn as steps, including the neighbours outside.
        QCPGraph *g = view.plot()->graph(0);
        QCOMPARE(g->lineStyle(), QCPGraph::lsStepRight);  // a sample covers the period before it
        QCOMPARE(g->data()->size(), 302);
        QCOMPARE(g->data()->at(1)->value, double(600 % 101));
        // Zoomed out to a day of 1 s samples: per-pixel buckets, nothing above or below lost.
        MetricSeriesModel big;
        big.setSeries(knownSeries(86400));
        TimeRangeController t2;
        t2.setFullRange(big.extent());
        UtilizationView v2(&big, &t2);
        v2.resize(900, 500);
        v2.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v2));
        v2.refresh();
        QCPGraph *g2 = v2.plot()->graph(0);
        QCOMPARE(g2->lineStyle(), QCPGraph::lsLine);
        QVERIFY(g2->data()->size() < 4 * 900 + 4);
        bool found = false;
        const QCPRange vr = g2->data()->valueRange(found);
        QVERIFY(found);
        QCOMPARE(vr.lower, 0.0);
        QCOMPARE(vr.upper, 100.0);
    }

    void dragSelectionReportsExactStats() {
        MetricSeriesModel metrics;
        const auto series = knownSeries(3600);
        metrics.setSeries(series);
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        QCPAxisRect *rect = view.plot()->axisRects().front();
        const int y = rect->center().y();
        const int x0 = rect->left() + rect->width() / 4, x1 = rect->left() + rect->width() * 3 / 5;
        QSignalSpy sel(&time, &TimeRangeController::selectionChanged);
        QTest::mousePress(view.plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(view.plot(), QPoint((x0 + x1) / 2, y));
        QTest::mouseMove(view.plot(), QPoint(x1, y));
        QTest::mouseRelease(view.plot(), Qt::LeftButton, {}, QPoint(x1, y));
        QVERIFY(sel.count() >= 1);
        const NsRange s = time.selection();
        QVERIFY(s.valid());
        QVERIFY(s.duration() > 1000 * kSec && s.duration() < 1500 * kSec);

        const auto stats = view.selectionStats();
        QCOMPARE(int(stats.size()), 2);
        for (int i = 0; i < 2; ++i) {
            const MetricStats want = bruteStats(series, i, s);
            QVERIFY(want.count > 1000);
            QCOMPARE(stats[size_t(i)].stats.count, want.count);
            QCOMPARE(stats[size_t(i)].stats.min, want.min);
            QCOMPARE(stats[size_t(i)].stats.max, want.max);
            QVERIFY(std::abs(stats[size_t(i)].stats.mean - want.mean) <= 1e-9 * std::max(1.0, want.mean));
        }
        QCOMPARE(stats[0].stats.min, 0.0);
        QCOMPARE(stats[0].stats.max, 100.0);
        // The table shows them in display units, with the sampling period.
        auto *table = view.findChild<RangeStatsTable *>();
        QVERIFY(table && table->isVisible());
        QCOMPARE(table->table()->rowCount(), 2);
        QCOMPARE(table->table()->item(0, 2)->text(), QStringLiteral("every 1 s"));
        QCOMPARE(table->table()->item(0, 4)->text(), QStringLiteral("0.00\u2009%"));
        QCOMPARE(table->table()->item(0, 6)->text(), QStringLiteral("100\u2009%"));
        QCOMPARE(table->table()->item(1, 4)->text(), QStringLiteral("1.00\u2009GiB"));
        QCOMPARE(table->table()->item(1, 6)->text(), QStringLiteral("7.00\u2009GiB"));

        // A click without dragging clears it.
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, QPoint(x0, y));
        QVERIFY(!time.selection().valid());
        QVERIFY(!table->isVisible());
    }

    void hoverShowsEveryValueAtTheInstant() {
        MetricSeriesModel metrics;
        metrics.setSeries(knownSeries(100));
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(900, 500);
        // 42.5 s lies in the period the sample at 43 s measured (utilization over the last second).
        const QStringList at = view.showCrosshair(kT0 + 42 * kSec + kSec / 2);
        QCOMPARE(at, QStringList({QStringLiteral("GPU 0: 43.0\u2009%"), QStringLiteral("used: 2.00\u2009GiB")}));
        QVERIFY(view.plot()->graph(0)->name().contains(QStringLiteral("43.0")));
        // Far past the last sample there is no value (a gap, not the last value forever).
        const QStringList after = view.showCrosshair(kT0 + 200 * kSec);
        QCOMPARE(after.first(), QStringLiteral("GPU 0: –"));
        view.showCrosshair(std::nullopt);
        QCOMPARE(view.plot()->graph(0)->name(), QStringLiteral("GPU 0\n   every 1 s"));
    }

    void rendersGeneratedTrainingSession() {
        test::UtilizationFixture f;
        f.openSynthetic(4, synth::Bottleneck::Input);
        QStringList keys;
        for (const UtilizationPanel &p : f.view->panels()) keys << p.key;
        QCOMPARE(keys, QStringList({"gpu_util", "gpu_mem_used", "gpu_mem_util"}));
        QCOMPARE(int(f.view->panels()[0].series.size()), 4);
        for (int g = 0; g < f.view->plot()->graphCount(); ++g)  // capacity lines (memory.total, dashed) are two points
            if (f.view->plot()->graph(g)->pen().style() != Qt::DashLine) QVERIFY(f.view->plot()->graph(g)->data()->size() > 10);
        // Zoom into a few steps through the controller, select part of it, hover.
        const NsRange full = f.time.fullRange();
        f.time.setRange({full.start + full.duration() / 3, full.start + full.duration() / 2});
        const NsRange r = f.time.range();
        f.time.setSelection({r.start + r.duration() / 4, r.start + r.duration() / 2});
        QCOMPARE(int(f.view->selectionStats().size()), 12);
        f.view->showCrosshair(r.start + r.duration() * 3 / 4);
        const QString png = f.savePng(QStringLiteral("utilization_demo"));
        QVERIFY(!png.isEmpty());
        QVERIFY(QFileInfo(png).size() > 20000);
    }

    void annotationsAppearOnEveryPanel() {
        test::UtilizationFixture f;
        f.openSynthetic(1, synth::Bottleneck::Input);
        const int panels = int(f.view->panels().size());
        QVERIFY(panels >= 2);
        AnnotationModel *notes = AnnotationModel::of(&f.session);
        f.view->setAnnotations(notes);
        QCOMPARE(f.view->annotationItemCount(), 0);
        const NsRange full = f.time.fullRange();
        Annotation a;
        a.startNs = full.start + full.duration() / 4;
        a.endNs = full.start + full.duration() / 2;
        a.text = "GPU idle while the loader reads";
        QVERIFY(notes->add(a) > 0);
        // A band, a strip and a label per panel, each clipped to and placed on that panel's axes.
        QCOMPARE(f.view->annotationItemCount(), 3 * panels);
        QSet<QCPAxisRect *> rects;
        for (int i = 0; i < f.view->plot()->itemCount(); ++i)
            if (auto *t = qobject_cast<QCPItemText *>(f.view->plot()->item(i)); t && t->text() == QString::fromStdString(a.text))
                rects.insert(t->clipAxisRect());
        QCOMPARE(int(rects.size()), panels);
        QVERIFY(!f.savePng(QStringLiteral("utilization_annotated")).isEmpty());
    }
};

QTEST_MAIN(TstUtilizationView)
#include "tst_utilization_view.moc"

// Real third-party metrics (../shared/samples) imported and shown in the utilization view, saved
// as PNGs under test-output/ for a person to look at: sysstat `sadf -d` (CPU, I/O wait, memory,
// network, disk at two sampling rates), a SageMaker system-metrics snapshot (32 cores → busiest
// core and mean), an nvidia-smi 4×T4 snapshot. Counts and values are those of the files.

#include "tests/test_support.h"
#include "tests/utilization/utilization_fixture.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;

namespace {
QStringList panelKeys(const UtilizationView &v) {
    QStringList keys;
    for (const UtilizationPanel &p : v.panels()) keys << p.key;
    return keys;
}
int64_t shownSamples(const UtilizationView &v, const MetricSeriesModel &m) {
    int64_t n = 0;
    for (const UtilizationPanel &p : v.panels())
        for (int s : p.series) n += m.series(s).lod.size();
    return n;
}
} // namespace

class TstSamplesUtilization : public QObject {
    Q_OBJECT
private slots:
    void sadf() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::UtilizationFixture f;
        f.open({samples / "sysstat/tests/expected.sadf-d"});
        QCOMPARE(panelKeys(*f.view), QStringList({"cpu", "host_mem", "network", "disk", "io_wait"}));
        // Machine-wide series only (per-core CPU/I/O wait are summarised by "busiest core").
        QStringList cpu;
        for (int s : f.view->panels()[0].series) cpu << UtilizationPanels::seriesLabel(f.metrics->series(s).info, false);
        QCOMPARE(cpu, QStringList({"machine", "busiest core"}));
        QCOMPARE(shownSamples(*f.view, *f.metrics) - f.metrics->series(f.view->panels()[0].series[1]).lod.size(),
                 int64_t(5 + 5 + 5 + 5 + 5 + 5 + 5));
        QCOMPARE(f.metrics->series(f.view->panels()[0].series[0]).info.periodNs, int64_t(10'000'000'000));
        // Whole file selected: the stats are those of every sample.
        f.time.setSelection({f.metrics->extent().start, f.metrics->extent().end + 1});
        const auto stats = f.view->selectionStats();
        QCOMPARE(int(stats.size()), 8);
        for (const SeriesRangeStats &s : stats) QCOMPARE(s.stats.count, f.metrics->series(s.series).lod.size());
        for (int g = 0; g < f.view->plot()->graphCount(); ++g) QVERIFY(f.view->plot()->graph(g)->data()->size() >= 5);
        f.time.clearSelection();
        f.view->showCrosshair(f.metrics->extent().start + 25'000'000'000);
        QVERIFY(!f.savePng(QStringLiteral("utilization_sadf")).isEmpty());
    }

    void sageMakerSnapshot() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::UtilizationFixture f;
        f.open({samples / "smdebug/test_traces/system/incremental/1591748100.algo-1.json"}, {900, 360});
        QCOMPARE(panelKeys(*f.view), QStringList({"cpu"}));
        QCOMPARE(int(f.view->panels()[0].series.size()), 2);  // busiest core, mean of 32 cores
        const QStringList at = f.view->showCrosshair(f.metrics->extent().start);
        QCOMPARE(at.first(), QStringLiteral("busiest core: 51.1\u2009%"));  // core 11
        // One sample per series: drawn as a visible dot (a disc drawn once into a pixmap), not an
        // invisible zero-length line.
        const QCPScatterStyle dot = f.view->plot()->graph(0)->scatterStyle();
        QCOMPARE(dot.shape(), QCPScatterStyle::ssPixmap);
        QVERIFY(!dot.pixmap().isNull());
        const QImage disc = dot.pixmap().toImage();
        QCOMPARE(QColor(disc.pixel(disc.width() / 2, disc.height() / 2)).rgb(), f.view->plot()->graph(0)->pen().color().rgb());
        QVERIFY(!f.savePng(QStringLiteral("utilization_sagemaker")).isEmpty());
    }

    void nvidiaSmiSnapshot() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::UtilizationFixture f;
        f.open({samples / "virtualclient/nvidia-smi/query-gpu-4xT4.csv"}, {900, 480});
        QCOMPARE(panelKeys(*f.view), QStringList({"gpu_util", "gpu_mem_used", "gpu_mem_util"}));
        QCOMPARE(int(f.view->panels()[1].series.size()), 4);
        const QStringList at = f.view->showCrosshair(f.metrics->extent().end);
        QVERIFY2(at.contains(QStringLiteral("GPU 0: 257\u2009MiB")), qPrintable(at.join(", ")));
        QVERIFY(!f.savePng(QStringLiteral("utilization_nvidia_smi")).isEmpty());
    }
};

QTEST_MAIN(TstSamplesUtilization)
#include "tst_samples_utilization.moc"

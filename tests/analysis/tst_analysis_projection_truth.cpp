// Projections against measured truth: the synthetic generator writes the same training loop (same
// seed) with and without a bottleneck; the projection for removing that bottleneck must land within
// 15% of the speedup measured between the two (issue #14). Real-world pairs: tst_samples_projection.

#include "app/synth/synthetic_profile_generator.h"
#include "tests/analysis/import_helper.h"

#include <QtTest>

using namespace stepscope;

namespace {

RunAnalysis analyzeSynthetic(synth::Bottleneck b, int gpus, bool phasesSync = false) {
    QTemporaryDir dir;
    synth::SyntheticProfileOptions o;
    o.steps = 20;
    o.seed = 11;
    o.gpus = gpus;
    o.bottleneck = b;
    o.phasesSync = phasesSync;
    const std::filesystem::path trace = dir.filePath("t.pt.trace.json.gz").toStdString();
    synth::SyntheticProfileGenerator(o).generate(trace, {});
    test::ImportedSession s({trace});
    ReportOptions ro;
    ro.batchSize = 64;
    Report r = s.report(ro);
    return std::move(r.runs.at(0).analysis);
}

double meanMs(const RunAnalysis &a) { return double(a.steps.totalNs()) / double(a.steps.steps.size()) / 1e6; }

} // namespace

class TestAnalysisProjectionTruth : public QObject {
    Q_OBJECT
private slots:
    void projectionMatchesTheMeasuredSpeedup_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("phasesSync");
        QTest::newRow("input") << "input" << "replay" << 1 << false;
        QTest::newRow("input, 2 GPUs") << "input" << "replay" << 2 << false;
        QTest::newRow("preprocessing") << "preprocessing" << "replay" << 1 << false;
        QTest::newRow("callback") << "callback" << "replay" << 1 << false;
        QTest::newRow("checkpoint") << "checkpoint" << "replay" << 1 << false;
        QTest::newRow("h2d") << "h2d" << "exposed" << 1 << false;
        QTest::newRow("collective") << "collective" << "exposed" << 2 << false;
        // The host waits on the GPU only inside the phase (issue #32): without it the host runs ahead.
        QTest::newRow("callback reading 24 values with .item()") << "callback" << "replay" << 1 << true;
        QTest::newRow("input that synchronizes the device") << "input" << "replay" << 1 << true;
        QTest::newRow("checkpoint, loop without per-step sync") << "checkpoint" << "replay" << 1 << true;
    }
    void projectionMatchesTheMeasuredSpeedup() {
        QFETCH(QString, profile);
        QFETCH(QString, method);
        QFETCH(int, gpus);
        QFETCH(bool, phasesSync);
        const RunAnalysis slow = analyzeSynthetic(*synth::parseBottleneck(profile.toStdString()), gpus, phasesSync);
        const RunAnalysis fixed = analyzeSynthetic(synth::Bottleneck::None, gpus, phasesSync);
        QVERIFY(slow.projection);
        const Projection &p = *slow.projection;
        QCOMPARE(p.method, method.toStdString());
        QCOMPARE(p.currentStepTimeMs, meanMs(slow));
        const double measured = meanMs(slow) / meanMs(fixed);
        QVERIFY2(measured > 1.3, qPrintable(QString("the generator's %1 costs %2x").arg(profile).arg(measured)));
        const double error = std::abs(p.speedup - measured) / measured;
        QVERIFY2(error < 0.15, qPrintable(QString("%1: projected %2x (%3 ms), measured %4x (%5 ms)")
                                              .arg(profile).arg(p.speedup).arg(p.stepTimeMs).arg(measured).arg(meanMs(fixed))));
        QVERIFY(p.samplesPerSecond);
        QCOMPARE(*p.samplesPerSecond, 64.0 / (p.stepTimeMs / 1e3));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisProjectionTruth)
#include "tst_analysis_projection_truth.moc"

// The projection on a real before/after pair: ResNet-50 profiled with DataLoader num_workers 0 and
// again with 4 (../shared/samples/kineto_tbplugin_2021legacy). Removing the input wait in the first
// must project the second's measured speedup within 15% (issue #14).

#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;

namespace {
double meanMs(const RunAnalysis &a) { return double(a.steps.totalNs()) / double(a.steps.steps.size()) / 1e6; }
}

class TestSamplesProjection : public QObject {
    Q_OBJECT
private slots:
    void numWorkersZeroToFour() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto dir = samples / "kineto_tbplugin_2021legacy";
        test::ImportedSession before({dir / "resnet50_profiler_api_num_workers_0"});
        test::ImportedSession after({dir / "resnet50_profiler_api_num_workers_4"});
        const Report b = before.report(), a = after.report();
        QCOMPARE(b.runs.size(), size_t(1));
        QCOMPARE(a.runs.size(), size_t(1));
        const RunAnalysis &slow = b.runs[0].analysis;
        QCOMPARE(slow.bottleneck, std::string("input"));
        QVERIFY(slow.projection);
        QCOMPARE(slow.projection->method, std::string("replay"));
        const double measured = meanMs(slow) / meanMs(a.runs[0].analysis);
        const double error = std::abs(slow.projection->speedup - measured) / measured;
        QVERIFY2(error < 0.15, qPrintable(QString("projected %1x, measured %2x").arg(slow.projection->speedup).arg(measured)));
        // The DataLoader finding quotes the same projection.
        bool quoted = false;
        for (const Finding &f : slow.findings)
            if (f.rule == "pt_dataloader") quoted = f.projection && f.projection->stepTimeMs == slow.projection->stepTimeMs;
        QVERIFY(quoted);
    }
};

QTEST_GUILESS_MAIN(TestSamplesProjection)
#include "tst_samples_projection.moc"

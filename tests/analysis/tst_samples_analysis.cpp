// Truth check on real PyTorch profiler traces (kineto_tbplugin_2021legacy, ResNet-50): with
// num_workers=0 the run is input-bound; with num_workers=4 it is not.

#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;

class TestSamplesAnalysis : public QObject {
    Q_OBJECT
private slots:
    void numWorkers() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto dir = samples / "kineto_tbplugin_2021legacy";
        test::ImportedSession w0({dir / "resnet50_profiler_api_num_workers_0"});
        test::ImportedSession w4({dir / "resnet50_profiler_api_num_workers_4"});
        const RunAnalysis a0 = w0.report().runs.at(0).analysis, a4 = w4.report().runs.at(0).analysis;
        QCOMPARE(a0.bottleneck, std::string("input"));
        QVERIFY(a0.categoryPct(Category::Input) >= 20);  // TF: highly input-bound
        auto has = [](const RunAnalysis &a, const std::string &rule) {
            return std::any_of(a.findings.begin(), a.findings.end(), [&](const Finding &f) { return f.rule == rule; });
        };
        QVERIFY(has(a0, "pt_dataloader"));
        QVERIFY(a4.bottleneck != "input");
        QVERIFY(a4.categoryPct(Category::Input) < 5);
        QVERIFY(!has(a4, "pt_dataloader"));
    }
};

QTEST_GUILESS_MAIN(TestSamplesAnalysis)
#include "tst_samples_analysis.moc"

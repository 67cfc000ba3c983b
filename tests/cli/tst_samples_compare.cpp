// `stepscope compare` on real before/after pairs (../shared/samples): ResNet-50 profiled with
// DataLoader num_workers 0 and again with 4 (the input stage vanishes, the DataLoader finding is
// resolved), and HTA's trace_diff control/test pair (issue #13).

#include "tests/cli/cli_test_support.h"
#include "tests/cli/compare_test_support.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

class TestSamplesCompare : public QObject {
    Q_OBJECT
private slots:
    void samplesNumWorkers() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto dir = samples / "kineto_tbplugin_2021legacy";
        const auto r = runCli({"compare", (dir / "resnet50_profiler_api_num_workers_0").string(),
                               (dir / "resnet50_profiler_api_num_workers_4").string(), "--format", "json"});
        QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        const QJsonObject input = categoryOf(c, "input");
        QVERIFY2(input["delta_ms"].toDouble() < -0.8 * input["base_ms"].toDouble(), qPrintable(QString::number(input["delta_ms"].toDouble())));
        QVERIFY(c["step_time_change_pct"].toDouble() < -10);  // measured: 154.8 → 128.3 ms
        QVERIFY(rulesOf(c, "resolved").contains(QStringLiteral("pt_dataloader")));
        // HTA's trace_diff pair compares too (same model, a changed run).
        const auto hta = runCli({"compare", (samples / "hta" / "trace_diff" / "control").string(),
                                 (samples / "hta" / "trace_diff" / "test").string(), "--format", "json"});
        QVERIFY2(hta.code == 0 || hta.code == 3, hta.err.c_str());
        QVERIFY(parseJson(hta.out)["ops"].toArray().size() > 10);
    }
};

QTEST_GUILESS_MAIN(TestSamplesCompare)
#include "tst_samples_compare.moc"

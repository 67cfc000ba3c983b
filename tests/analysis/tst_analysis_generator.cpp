// End to end: every bottleneck the synthetic generator can inject is named by the analysis
// (generator -> Chrome importer + nvidia-smi importer -> RunAnalyzer), with its detail.

#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/report/report_formatter.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;

class TestAnalysisGenerator : public QObject {
    Q_OBJECT
private slots:
    void bottleneckIsNamed_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("bottleneck");
        QTest::addColumn<QString>("detail");
        QTest::newRow("none") << "none" << "device_compute" << "";
        QTest::newRow("input") << "input" << "input" << "io";
        QTest::newRow("preprocessing") << "preprocessing" << "input" << "preprocessing";
        QTest::newRow("h2d") << "h2d" << "h2d" << "pageable_memory";
        QTest::newRow("kernel_launch") << "kernel_launch" << "kernel_launch" << "small_kernels";
        QTest::newRow("callback") << "callback" << "callback" << "every_step";
        QTest::newRow("checkpoint") << "checkpoint" << "checkpoint" << "periodic";
        QTest::newRow("collective") << "collective" << "collective" << "";
    }
    void bottleneckIsNamed() {
        QFETCH(QString, profile);
        QFETCH(QString, bottleneck);
        QFETCH(QString, detail);
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 12;
        o.bottleneck = *synth::parseBottleneck(profile.toStdString());
        const std::filesystem::path trace = dir.filePath("t.pt.trace.json.gz").toStdString();
        const std::filesystem::path csv = dir.filePath("nvidia-smi.csv").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, csv);
        test::ImportedSession s({trace, csv});
        ReportOptions ro;
        ro.batchSize = 128;
        const Report r = s.report(ro);
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QCOMPARE(a.steps.steps.size(), size_t(12));
        QCOMPARE(QString::fromStdString(a.bottleneck), bottleneck);
        QCOMPARE(QString::fromStdString(a.bottleneckDetail), detail);
        // Every step's categories sum to its duration, and the JSON carries the contract's keys.
        for (size_t k = 0; k < a.steps.steps.size(); ++k) {
            int64_t sum = 0;
            for (int c = 0; c < kCategoryCount; ++c) sum += a.categoryNs(k, Category(c));
            QCOMPARE(sum, a.steps.steps[k].dur());
        }
        const QJsonObject run = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r)))
                                    .object()["runs"].toArray()[0].toObject();
        QCOMPARE(run["summary"].toObject()["bottleneck"].toString(), bottleneck);
        for (const char *key : {"gpu_busy_pct", "breakdown_pct", "bottleneck_detail", "samples_per_s", "step_time_ms"})
            QVERIFY2(run["summary"].toObject().contains(key), key);
        for (const char *key : {"count", "total_ns", "by_cause_ns", "top"}) QVERIFY2(run["gaps"].toObject().contains(key), key);
        QCOMPARE(run["steps"].toArray()[0].toObject()["breakdown_ns"].toObject().size(), kCategoryCount);
        QVERIFY(!run["top_ops"].toArray().isEmpty());
        // The bottleneck's own finding is there with evidence (device-bound runs have none to make).
        if (bottleneck != "device_compute" && bottleneck != "kernel_launch") {
            bool found = false;
            for (const Finding &f : a.findings) found = found || (!f.steps.empty() && f.severity == FindingSeverity::High);
            QVERIFY(found);
        }
    }
};

QTEST_GUILESS_MAIN(TestAnalysisGenerator)
#include "tst_analysis_generator.moc"

// BatchSizeDetector on hand-built sessions: the batch size read from recorded input shapes ("Input
// Dims") — the first layer's first input in each step, the most common value winning; the batch's copy
// to the device when no layer records one; none without shapes — and how the report states it
// (detected, the CLI's, the session's setting) with samples/s.

#include "models/analysis/report/report_builder.h"
#include "models/analysis/report/report_formatter.h"
#include "tests/analysis/analysis_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

namespace {
QJsonObject reportRun(SessionStore &store, const ReportOptions &o = {}) {
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(ReportBuilder(store).build(o))));
    return doc.object()["runs"].toArray().first().toObject();
}
} // namespace

class TestBatchSizeDetector : public QObject {
    Q_OBJECT

private slots:
    void batchSizeDetected() {
        AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        // Three steps of 10 ms. Each: the batch copied to the GPU (aten::to [64,3,224,224]) and then
        // aten::conv2d on it; step 3's conv records batch 32 (a last, short batch): 64 wins 2 to 1.
        for (int s = 0; s < 3; ++s) {
            const int64_t t0 = s * 10 * kMs;
            const int batch = s == 2 ? 32 : 64;
            f.step(s + 1, t0, t0 + 10 * kMs);
            f.slice(f.host, "ProfilerStep#" + std::to_string(s + 1), "user_annotation", t0, t0 + 10 * kMs);
            f.slice(f.host, "aten::to", "cpu_op", t0 + 1 * kMs, t0 + 2 * kMs, std::nullopt,
                    "{\"Input Dims\": [[" + std::to_string(batch) + ", 3, 224, 224], [], [], []]}");
            f.slice(f.host, "aten::conv2d", "cpu_op", t0 + 3 * kMs, t0 + 4 * kMs, std::nullopt,
                    "{\"Input Dims\": [[" + std::to_string(batch) + ", 3, 224, 224], [64, 3, 7, 7], []]}");
            f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", t0 + 3 * kMs, t0 + 3 * kMs + 10 * kUs, 100 + s);
            f.slice(gpu, "conv_kernel", "kernel", t0 + 4 * kMs, t0 + 9 * kMs, 100 + s);
        }
        const RunAnalysis a = f.analyze();
        QVERIFY(a.batchSize);
        QCOMPARE(*a.batchSize, int64_t(64));
        QCOMPARE(a.batchSizeSource, std::string("detected"));
        QVERIFY2(a.batchSizeEvidence.find("aten::conv2d [64,3,224,224] in 2 of 3 steps") != std::string::npos,
                 a.batchSizeEvidence.c_str());
        QVERIFY(a.samplesPerSecond);
        const int64_t total = a.steps.totalNs();
        QCOMPARE(*a.samplesPerSecond, 64.0 * 3 / (double(total) / 1e9));

        // Report: source and samples/s follow.
        QJsonObject summary = reportRun(f.store())["summary"].toObject();
        QCOMPARE(summary["batch_size"].toInt(), 64);
        QCOMPARE(summary["batch_size_source"].toString(), QString("detected"));
        QVERIFY(summary.contains("samples_per_s"));
        QVERIFY(summary["batch_size_evidence"].toString().contains("aten::conv2d"));
        // A given batch size wins: --batch-size, then the session's setting.
        ReportOptions o;
        o.batchSize = 16;
        summary = reportRun(f.store(), o)["summary"].toObject();
        QCOMPARE(summary["batch_size"].toInt(), 16);
        QCOMPARE(summary["batch_size_source"].toString(), QString("cli"));
        QVERIFY(!summary.contains("batch_size_evidence"));
        f.store().setSetting("batch_size", "48");
        summary = reportRun(f.store())["summary"].toObject();
        QCOMPARE(summary["batch_size"].toInt(), 48);
        QCOMPARE(summary["batch_size_source"].toString(), QString("session"));
        o.batchSize = 48;  // the CLI passes the saved value on when --batch-size is absent
        QCOMPARE(reportRun(f.store(), o)["summary"].toObject()["batch_size_source"].toString(), QString("session"));
        o.batchSizeSource = "cli";
        QCOMPARE(reportRun(f.store(), o)["summary"].toObject()["batch_size_source"].toString(), QString("cli"));
    }

    void batchSizeFromCopyWithoutLayers() {
        AnalysisFixture f;
        f.step(1, 0, 10 * kMs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        // A scalar conversion first (rank 0: skipped), then the batch.
        f.slice(f.host, "aten::to", "cpu_op", 1 * kMs, 2 * kMs, std::nullopt, "{\"Input Dims\": [[], [], []]}");
        f.slice(f.host, "aten::copy_", "cpu_op", 3 * kMs, 4 * kMs, std::nullopt, "{\"Input Dims\": [[128, 512], [128, 512], []]}");
        const RunAnalysis a = f.analyze();
        QVERIFY(a.batchSize);
        QCOMPARE(*a.batchSize, int64_t(128));
        QCOMPARE(a.batchSizeSource, std::string("detected"));
    }

    void noShapesNoBatchSize() {
        AnalysisFixture f;
        f.step(1, 0, 10 * kMs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(f.host, "aten::conv2d", "cpu_op", 1 * kMs, 2 * kMs);  // record_shapes off
        const RunAnalysis a = f.analyze();
        QVERIFY(!a.batchSize);
        QVERIFY(a.batchSizeSource.empty());
        QVERIFY(!a.samplesPerSecond);
        AnalysisOptions o;
        o.detectBatchSize = false;
        QVERIFY(!f.analyze(o).batchSize);
        const QJsonObject summary = reportRun(f.store())["summary"].toObject();
        QVERIFY(!summary.contains("batch_size") && !summary.contains("batch_size_source"));
    }
};

QTEST_MAIN(TestBatchSizeDetector)
#include "tst_batch_size_detector.moc"

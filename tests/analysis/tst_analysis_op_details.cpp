// Kernel details in the op statistics (grid, block, registers per thread, shared memory: the value of
// more than half of a kernel's occurrences, else "varies") and the batch size detected from recorded
// input shapes ("Input Dims"), with their report keys — on hand-built sessions.

#include "models/analysis/report/report_formatter.h"
#include "models/store/slice_args.h"
#include "tests/analysis/analysis_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

namespace {
std::string kernelArgs(const std::string &grid, const std::string &block, int regs, int smem) {
    return "{\"device\": 0, \"stream\": 7, \"correlation\": 1, \"grid\": " + grid + ", \"block\": " + block +
           ", \"registers per thread\": " + std::to_string(regs) + ", \"shared memory\": " + std::to_string(smem) +
           ", \"est. achieved occupancy %\": 50}";
}

const OpStat *findOp(const RunAnalysis &a, const std::string &name, int device) {
    for (const OpStat &o : a.ops)
        if (o.name == name && o.device == device) return &o;
    return nullptr;
}

QJsonObject reportRun(SessionStore &store, const ReportOptions &o = {}) {
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(ReportBuilder(store).build(o))));
    return doc.object()["runs"].toArray().first().toObject();
}
} // namespace

class TestAnalysisOpDetails : public QObject {
    Q_OBJECT

    // One step [0, 10 ms); GPU 0 stream with three kernels:
    //   gemm x3: grid [128,1,1] twice, [64,1,1] once; block [256, 1, 1] always; 32 regs; smem 0, 0, 4096
    //   relu x2: grid [10,1,1] and [20,1,1] (tie: varies); block [512,1,1]; 16 regs twice; smem 0
    //   memcpy-like kernel without args.
    static void kernels(AnalysisFixture &f) {
        const int64_t gpu = f.stream(0, "stream 7");
        f.step(1, 0, 10 * kMs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(gpu, "gemm", "kernel", 1 * kMs, 2 * kMs, std::nullopt, kernelArgs("[128, 1, 1]", "[256, 1, 1]", 32, 0));
        f.slice(gpu, "gemm", "kernel", 2 * kMs, 3 * kMs, std::nullopt, kernelArgs("[128,1,1]", "[256,1,1]", 32, 0));
        f.slice(gpu, "gemm", "kernel", 3 * kMs, 4 * kMs, std::nullopt, kernelArgs("[64, 1, 1]", "[256, 1, 1]", 32, 4096));
        f.slice(gpu, "relu", "kernel", 4 * kMs, 5 * kMs, std::nullopt, kernelArgs("[10, 1, 1]", "[512, 1, 1]", 16, 0));
        f.slice(gpu, "relu", "kernel", 5 * kMs, 6 * kMs, std::nullopt, kernelArgs("[20, 1, 1]", "[512, 1, 1]", 16, 0));
        f.slice(gpu, "fill", "kernel", 6 * kMs, 7 * kMs);
    }

private slots:
    void argsReader() {
        const std::string a = "{\"name\": \"x, \\\"grid\\\": 1\", \"grid\" : [ 1, 2, 3 ], \"n\": {\"grid\": 9}, \"registers per thread\": 32}";
        QCOMPARE(slice_args::compact(*slice_args::value(a, "grid")), std::string("[1,2,3]"));
        QCOMPARE(std::string(*slice_args::value(a, "registers per thread")), std::string("32"));
        QVERIFY(!slice_args::value(a, "block"));
        const auto dims = slice_args::firstInputDims("{\"Input Dims\": [[64, 3, 224, 224], [], [64]], \"External id\": 3}");
        QVERIFY(dims);
        QCOMPARE(*dims, (std::vector<int64_t>{64, 3, 224, 224}));
        QVERIFY(!slice_args::firstInputDims("{\"Input Dims\": [[\"x\"]]}"));
    }

    void kernelDetails() {
        AnalysisFixture f;
        kernels(f);
        const RunAnalysis a = f.analyze();
        const OpStat *gemm = findOp(a, "gemm", 0);
        QVERIFY(gemm);
        QCOMPARE(gemm->count, int64_t(3));
        QCOMPARE(gemm->kernel.grid, std::string("[128,1,1]"));  // 2 of 3
        QCOMPARE(gemm->kernel.block, std::string("[256,1,1]"));
        QCOMPARE(gemm->kernel.registers, std::string("32"));
        QCOMPARE(gemm->kernel.sharedMemory, std::string("0"));
        const OpStat *relu = findOp(a, "relu", 0);
        QVERIFY(relu);
        QCOMPARE(relu->kernel.grid, std::string("varies"));  // 1 of 2 is not more than half
        QCOMPARE(relu->kernel.block, std::string("[512,1,1]"));
        QCOMPARE(relu->kernel.registers, std::string("16"));
        const OpStat *fill = findOp(a, "fill", 0);
        QVERIFY(fill);
        QVERIFY(fill->kernel.empty());
        // Host ops carry none.
        for (const OpStat &o : a.ops)
            if (o.host()) QVERIFY(o.kernel.empty());

        // Report JSON: keys added to top_ops, the old ones kept.
        const QJsonArray top = reportRun(f.store())["top_ops"].toArray();
        QJsonObject g, r, fl;
        for (const QJsonValue &v : top) {
            const QJsonObject o = v.toObject();
            if (o["name"] == "gemm") g = o;
            if (o["name"] == "relu") r = o;
            if (o["name"] == "fill") fl = o;
        }
        for (const char *key : {"name", "side", "device", "count", "total_ns", "self_ns", "mean_ns", "min_ns", "max_ns"})
            QVERIFY2(g.contains(QLatin1String(key)), key);
        QCOMPARE(g["grid"].toArray(), (QJsonArray{128, 1, 1}));
        QCOMPARE(g["block"].toArray(), (QJsonArray{256, 1, 1}));
        QCOMPARE(g["registers_per_thread"].toInt(), 32);
        QCOMPARE(g["shared_memory"].toInt(), 0);
        QCOMPARE(r["grid"].toString(), QString("varies"));
        QVERIFY(!fl.isEmpty());
        QVERIFY(!fl.contains("grid") && !fl.contains("registers_per_thread"));

        const std::string md = ReportFormatter::markdown(ReportBuilder(f.store()).build());
        QVERIFY2(md.find("| gemm | 3 | 3.00 | [128,1,1] | [256,1,1] | 32 | 0 |") != std::string::npos, md.c_str());
        const std::string text = ReportFormatter::text(ReportBuilder(f.store()).build());
        QVERIFY2(text.find("grid [128,1,1], block [256,1,1], registers/thread 32, shared memory 0") != std::string::npos, text.c_str());
    }

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

QTEST_MAIN(TestAnalysisOpDetails)
#include "tst_analysis_op_details.moc"

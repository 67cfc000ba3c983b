// Kernel details in the op statistics (grid, block, registers per thread, shared memory: the value of
// more than half of a kernel's occurrences, else "varies"), with their report keys — on hand-built
// sessions. (The batch size detected from input shapes: tst_batch_size_detector.)

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
};

QTEST_MAIN(TestAnalysisOpDetails)
#include "tst_analysis_op_details.moc"

// Op efficiency against the device's peak (issue #33, item 2): FLOPs and bytes of convolutions, matrix
// products and attention from recorded shapes, checked against hand-computed values; the peak table;
// the real H200 recording of ops with known costs (scripts/record_gpu_efficiency.py), where every op's
// FLOPs equal the hand count and its achieved rate is what the loop measured; the generated 11x11 fp32
// convolution on a direct kernel, which is the least efficient of the GPU ops and gets the
// inefficient_op finding, while the ops generated at known shares of the roof are found at them; an
// unknown device gets figures but no peaks.
#include "app/synth/op_shapes.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/engine/device_peaks.h"
#include "models/store/sqlite_statement.h"
#include "importers/common/op_cost.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;

namespace {

double flopsOf(const char *name, const std::string &args) {
    const auto c = OpCostModel::estimate(name, args);
    return c ? c->flops : -1;
}

const OpStat *findOp(const RunAnalysis &a, const std::string &name, bool host) {
    for (const OpStat &o : a.ops)
        if (o.name == name && o.host() == host) return &o;
    return nullptr;
}

const OpStat *findKernel(const RunAnalysis &a, std::string_view part) {
    for (const OpStat &o : a.ops)
        if (!o.host() && o.name.find(part) != std::string::npos) return &o;
    return nullptr;
}

QJsonObject efficiencyTruth() {
    QFile f(QString::fromStdString(test::testData("gpu-efficiency/efficiency_truth.json").string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestOpEfficiency : public QObject {
    Q_OBJECT
private slots:
    void flopsByHand() {
        // conv2d 3x3, padding 1: 2 * 64 * 128 * 56 * 56 * 64 * 9
        const std::string conv = R"J({"Input Dims": [[64, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], []],
            "Input type": ["c10::BFloat16", "c10::BFloat16", "", "ScalarList", "ScalarList", "ScalarList", "Scalar"],
            "Concrete Inputs": ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"]})J";
        QCOMPARE(flopsOf("aten::conv2d", conv), 2.0 * 64 * 128 * 56 * 56 * 64 * 9);
        QCOMPARE(OpCostModel::estimate("aten::conv2d", conv)->dtype, std::string("bf16"));
        // cudnn_convolution keeps padding before stride: stride 2 halves the output.
        const std::string cudnn = R"J({"Input Dims": [[8, 16, 32, 32], [32, 16, 3, 3]], "Input type": ["float", "float"],
            "Concrete Inputs": ["", "", "[1, 1]", "[2, 2]", "[1, 1]", "1", "False", "False", "True"]})J";
        QCOMPARE(flopsOf("aten::cudnn_convolution", cudnn), 2.0 * 8 * 32 * 16 * 16 * 16 * 9);
        // Grouped (depthwise): the weight has C/groups input channels.
        const std::string depthwise = R"J({"Input Dims": [[4, 32, 10, 10], [32, 1, 3, 3], [], [], [], [], []],
            "Input type": ["float", "float"], "Concrete Inputs": ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "32"]})J";
        QCOMPARE(flopsOf("aten::conv2d", depthwise), 2.0 * 4 * 32 * 8 * 8 * 1 * 9);
        // Backward with grad input and grad weight: twice the forward.
        const std::string backward = R"J({"Input Dims": [[8, 32, 16, 16], [8, 16, 32, 32], [32, 16, 3, 3]],
            "Input type": ["float", "float", "float"],
            "Concrete Inputs": ["", "", "", "[32]", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"]})J";
        QCOMPARE(flopsOf("aten::convolution_backward", backward), 2 * 2.0 * 8 * 32 * 16 * 16 * 16 * 9);
        QCOMPARE(flopsOf("aten::mm", R"J({"Input Dims": [[4096, 4096], [4096, 4096]], "Input type": ["c10::BFloat16", "c10::BFloat16"]})J"),
                 2.0 * 4096 * 4096 * 4096);
        QCOMPARE(flopsOf("aten::addmm", R"J({"Input Dims": [[512], [128, 256], [256, 512]], "Input type": ["float", "float", "float"]})J"),
                 2.0 * 128 * 256 * 512);
        QCOMPARE(flopsOf("aten::bmm", R"J({"Input Dims": [[64, 512, 256], [64, 256, 512]], "Input type": ["float", "float"]})J"),
                 2.0 * 64 * 512 * 256 * 512);
        QCOMPARE(flopsOf("aten::linear", R"J({"Input Dims": [[4, 2048, 1024], [4096, 1024], []], "Input type": ["float", "float", ""]})J"),
                 2.0 * 4 * 2048 * 1024 * 4096);
        const std::string sdpa = R"J({"Input Dims": [[16, 16, 1024, 128], [16, 16, 1024, 128], [16, 16, 1024, 128], [], [], [], [], []],
            "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"], "Concrete Inputs": ["", "", "", "", "0.", "False", "", "False"]})J";
        QCOMPARE(flopsOf("aten::scaled_dot_product_attention", sdpa), 4.0 * 16 * 16 * 1024 * 1024 * 128);
        std::string causal = sdpa;
        causal.replace(causal.find("\"False\", \"\""), 7, "\"True\"");
        QCOMPARE(flopsOf("aten::scaled_dot_product_attention", causal), 2.0 * 16 * 16 * 1024 * 1024 * 128);
        // Memory-bound ops: bytes only (two bf16 inputs read, one written).
        const auto add = OpCostModel::estimate("aten::add", R"J({"Input Dims": [[1024, 1024], [1024, 1024], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "Scalar"]})J");
        QVERIFY(add && add->flops == 0);
        QCOMPARE(add->bytes, 3.0 * 1024 * 1024 * 2);
    }

    void noInventedFigures() {
        QCOMPARE(flopsOf("aten::mm", R"J({"Input Dims": [[4, 5], [6, 7]], "Input type": ["float", "float"]})J"), -1.0);  // K differs
        QCOMPARE(flopsOf("aten::mm", R"J({"Input Dims": [[-4, 5], [5, 7]], "Input type": ["float", "float"]})J"), -1.0);
        QCOMPARE(flopsOf("aten::mm", R"J({"Input Dims": [[4, 5], [5, 7]]})J"), -1.0);  // no dtype
        QCOMPARE(flopsOf("aten::mm", R"J({"Input Dims": [[1099511627777, 5], [5, 7]], "Input type": ["float", "float"]})J"), -1.0);
        QCOMPARE(flopsOf("aten::conv2d", R"J({"Input Dims": [[1, 3, 2, 2], [8, 3, 5, 5], [], [], [], [], []], "Input type": ["float", "float"],
            "Concrete Inputs": ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "1"]})J"), -1.0);  // kernel larger than the input
        QCOMPARE(flopsOf("aten::conv2d", R"J({"Input Dims": [[1, 3, 8, 8], [8, 3, 3, 3]], "Input type": ["float", "float"],
            "Concrete Inputs": ["", "", "", "[1, 1]", "same", "[1, 1]", "1"]})J"), -1.0);
        QCOMPARE(flopsOf("aten::conv2d", "not json"), -1.0);
        QVERIFY(!OpCostModel::estimate("aten::view", R"J({"Input Dims": [[4, 5]], "Input type": ["float"]})J"));
    }

    void peakTable() {
        const DevicePeaks &p = DevicePeaks::builtin();
        QVERIFY(p.devices().size() >= 10);
        for (const DevicePeak &d : p.devices()) QVERIFY(!d.source.empty());
        const DevicePeak *h200 = p.find("NVIDIA H200");
        QVERIFY(h200 && h200->memGbps == 4800 && h200->peakTflops("bf16") == 989.5);
        QCOMPARE(p.find("NVIDIA H100 PCIe")->memGbps, 2000.0);
        QCOMPARE(p.find("NVIDIA H100 80GB HBM3")->memGbps, 3350.0);
        QCOMPARE(p.find("NVIDIA A100-SXM4-40GB")->memGbps, 1555.0);
        QCOMPARE(p.find("NVIDIA A100-SXM4-80GB")->memGbps, 2039.0);
        QCOMPARE(p.find("Tesla T4")->memGbps, 320.0);
        QVERIFY(!p.find("Tesla T4")->peakTflops("bf16"));
        QVERIFY(!p.find("Mystery Accelerator 9000"));
        QVERIFY(!p.find(""));
        QCOMPARE(h200->ridgeIntensity("bf16"), 989.5 * 1000 / 4800);
        try {
            DevicePeaks::parse("X\t1\t2\n", "t.tsv");
            QFAIL("a short line was accepted");
        } catch (const std::runtime_error &e) {
            QVERIFY(std::string(e.what()).find("t.tsv:1") != std::string::npos);
        }
    }

    // Real: each op's FLOPs over the 4 profiled steps are 4 times the hand count, and its achieved rate
    // is within 15 % of what the loop measured with CUDA events outside the profiler (ops of 0.1 ms or more).
    void realRecording() {
        const QJsonObject truth = efficiencyTruth()["ops"].toObject();
        QVERIFY(!truth.isEmpty());
        test::ImportedSession s({test::testData("gpu-efficiency/efficiency.pt.trace.json.gz")});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        QCOMPARE(a.steps.steps.size(), size_t(4));
        const std::pair<const char *, const char *> ops[] = {{"aten::linear", "linear_bf16"}, {"aten::bmm", "bmm_bf16"},
                                                             {"aten::scaled_dot_product_attention", "sdpa_bf16"}};
        for (const auto &[op, key] : ops) {
            const OpStat *o = findOp(a, op, true);
            QVERIFY2(o && o->efficiency, op);
            const QJsonObject t = truth[key].toObject();
            QCOMPARE(o->efficiency->flops, 4 * t["flops"].toDouble());
            // The loop's clock also counts the launch gaps between calls: for the 26 us bmm that is a fifth
            // of its time, so there the kernels' own rate may only be higher.
            const double measured = t["achieved_tflops"].toDouble();
            const bool shortOp = t["measured_ms"].toDouble() < 0.1;
            QVERIFY2(shortOp ? o->efficiency->achievedTflops() >= 0.95 * measured && o->efficiency->achievedTflops() < 1.5 * measured
                             : std::abs(o->efficiency->achievedTflops() - measured) < 0.15 * measured,
                     qPrintable(QString("%1: %2 vs %3 TFLOPS").arg(op).arg(o->efficiency->achievedTflops()).arg(measured)));
            QCOMPARE(o->efficiency->dtype, std::string("bf16"));
            QVERIFY(o->efficiency->pctOfPeak && *o->efficiency->pctOfPeak > 20 && *o->efficiency->pctOfPeak < 100);
            // The bmm (171 FLOP/byte) sits left of the H200's bf16 ridge point (206): memory-bound.
            QCOMPARE(o->efficiency->bound, std::string(o->efficiency->intensity() >= 989.5 * 1000 / 4800 ? "compute" : "memory"));
            QCOMPARE(o->efficiency->bound, std::string(std::string(op) == "aten::bmm" ? "memory" : "compute"));
        }
        // aten::conv2d holds both convolutions (3x3 bf16 and 11x11 fp32).
        QCOMPARE(findOp(a, "aten::conv2d", true)->efficiency->flops,
                 4 * (truth["conv3x3_bf16"].toObject()["flops"].toDouble() + truth["conv11x11_fp32"].toObject()["flops"].toDouble()));
        const OpStat *norm = findOp(a, "aten::layer_norm", true);
        QVERIFY(norm && norm->efficiency && norm->efficiency->flops == 0);
        QCOMPARE(norm->efficiency->bound, std::string("memory"));
        QVERIFY(*norm->efficiency->pctOfPeak > 20 && *norm->efficiency->pctOfPeak < 100);
        // The GEMM kernel of the linear layer carries its FLOPs.
        const OpStat *gemm = findKernel(a, "nvjet_sm90_tst_320x128");
        QVERIFY(gemm && gemm->efficiency && gemm->efficiency->op == "aten::linear");
    }

    void generatedSlowConvolution() {
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 6;
        o.recordShapes = true;
        o.slowConvMs = 20;
        const std::filesystem::path file = dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(file, {});
        test::ImportedSession s({file});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        const OpStat *slow = findKernel(a, "implicit_convolve_sgemm");
        QVERIFY(slow && slow->efficiency && slow->efficiency->pctOfPeak);
        const double expectedPct = 100.0 * synth::OpShapes::slowConvFlops() / 0.020 / 67e12;
        QVERIFY2(std::abs(*slow->efficiency->pctOfPeak - expectedPct) < 0.1 * expectedPct, qPrintable(QString::number(*slow->efficiency->pctOfPeak)));
        int64_t gpuNs = 0;
        for (const OpStat &op : a.ops) gpuNs += op.host() ? 0 : op.totalNs;
        for (const OpStat &op : a.ops)
            if (!op.host() && &op != slow && op.efficiency && op.efficiency->pctOfPeak && op.totalNs * 100 >= gpuNs)
                QVERIFY2(*op.efficiency->pctOfPeak > *slow->efficiency->pctOfPeak, op.name.c_str());
        // The generated shares of the roof are found.
        QVERIFY(std::abs(*findKernel(a, "sm90_xmma_fprop")->efficiency->pctOfPeak - synth::OpShapes::kConvTensorCorePct) < 5);
        QCOMPARE(findKernel(a, "sm90_xmma_fprop")->efficiency->dtype, std::string("tf32"));
        QVERIFY(std::abs(*findKernel(a, "conv2d_grouped_direct")->efficiency->pctOfPeak - synth::OpShapes::kConvDirectPct) < 5);
        QVERIFY(std::abs(*findKernel(a, "bn_fw_tr")->efficiency->pctOfPeak - synth::OpShapes::kMemoryPct) < 5);
        QVERIFY(std::abs(*findKernel(a, "ampere_sgemm_128x64_tn")->efficiency->pctOfPeak - synth::OpShapes::kLinearPct) < 5);
        const Finding *f = nullptr;
        for (const Finding &x : a.findings)
            if (x.rule == "inefficient_op") f = f ? f : &x;
        QVERIFY(f);
        QVERIFY2(f->detail.find("[32,32,11,11]") != std::string::npos, f->detail.c_str());
        QVERIFY(f->projection && f->projection->stepTimeMs < f->projection->currentStepTimeMs - 10);
        QVERIFY(f->recommendation.find("autocast") != std::string::npos);  // a PyTorch run
    }

    void healthyGeneratedLoopHasNoInefficientOp() {
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 4;
        o.recordShapes = true;
        const std::filesystem::path file = dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(file, {});
        test::ImportedSession s({file});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        for (const Finding &f : a.findings) QVERIFY2(f.rule != "inefficient_op", f.detail.c_str());
        QVERIFY(findKernel(a, "sm90_xmma_fprop")->efficiency);
    }

    // slice_cost rows from someone else's session: NaN, negative or absurd figures are left out, an
    // unknown dtype reads as unknown, and control characters in the shapes are made visible.
    void alteredCostRowsAreRefused() {
        test::AnalysisFixture f(0, "NVIDIA H100 80GB HBM3");
        const int64_t gpu = f.stream(0, "stream 7");
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * test::kMs);
        f.slice(gpu, "k", "kernel", 1 * test::kMs, 2 * test::kMs);
        f.step(1, 0, 10 * test::kMs);
        f.commit();
        SessionStore &store = f.store();
        const int64_t track = SessionReader(store).tracks(SessionReader(store).runs().front().id).back().id;
        sqliteExec(store.db(), "INSERT INTO slice_cost VALUES (1001, " + std::to_string(track) + ", 1000000, 1, 'nan', 5, 'fp32', ''),"
                               "(1002, " + std::to_string(track) + ", 1000001, 1, -5, 5, 'fp32', ''),"
                               "(1003, " + std::to_string(track) + ", 1000002, 1, 1e300, 5, 'fp32', ''),"
                               "(1004, " + std::to_string(track) + ", 1000003, 1, 5, 5, 'fp99', 'a' || char(7) || 'b'),"
                               "(1005, " + std::to_string(track) + ", 1000004, 1, 0, 0, 'fp32', '')");
        const std::vector<SliceCostRow> rows = SessionReader(store).sliceCosts(track, 0, 10 * test::kMs);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].sliceId, int64_t(1004));
        QVERIFY(rows[0].dtype.empty());
        QVERIFY(rows[0].shapes.find('\a') == std::string::npos);
        const RunAnalysis a = f.analyze();  // and the analysis of it does not trip
        QVERIFY(!a.steps.steps.empty());
    }

    void unknownDeviceHasNoPeaks() {
        test::AnalysisFixture f(0, "Mystery Accelerator 9000");
        const int64_t gpu = f.stream(0, "stream 7");
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * test::kMs);
        f.slice(f.host, "aten::mm", "cpu_op", 1 * test::kMs, 2 * test::kMs, std::nullopt,
                R"J({"Input Dims": [[1024, 1024], [1024, 1024]], "Input type": ["float", "float"]})J");
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 1100 * test::kUs, 1200 * test::kUs, 7);
        f.slice(gpu, "sgemm", "kernel", 2 * test::kMs, 4 * test::kMs, 7);
        f.step(1, 0, 10 * test::kMs);
        const RunAnalysis a = f.analyze();
        const OpStat *k = findKernel(a, "sgemm");
        QVERIFY(k && k->efficiency);
        QCOMPARE(k->efficiency->flops, 2.0 * 1024 * 1024 * 1024);
        QCOMPARE(k->efficiency->timeNs, 2 * test::kMs);
        QVERIFY(!k->efficiency->pctOfPeak && !k->efficiency->peakTflops && k->efficiency->bound.empty());
        QCOMPARE(findOp(a, "aten::mm", true)->efficiency->flops, 2.0 * 1024 * 1024 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestOpEfficiency)
#include "tst_op_efficiency.moc"

// `stepscope compare` (issue #13): a hand-built before/after pair whose every delta is known, the
// self-compare, runs of different lengths, missing batch sizes and steps, bad sides, and the text
// and markdown pages.

#include "app/synth/step_simulator.h"
#include "app/synth/synthetic_profile_generator.h"
#include "tests/cli/cli_test_support.h"
#include "tests/cli/compare_test_support.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace stepscope;
using namespace stepscope::test;

namespace {

// `steps` steps of `loadMs` in the DataLoader then one `kernelMs` kernel (launched from the host at
// the end of the load), back to back from t = 0 (ms → µs in the trace).
std::string trainingLoop(int steps, int loadMs, int kernelMs, bool markers = true) {
    std::string j = R"({"schemaVersion":1,"traceEvents":[
{"ph":"M","name":"process_labels","pid":0,"args":{"labels":"GPU 0"}},
{"ph":"M","name":"thread_name","pid":0,"tid":7,"args":{"name":"stream 7"}},
)";
    int64_t t = 0;
    for (int n = 1; n <= steps; ++n) {
        const int64_t dur = int64_t(loadMs + kernelMs) * 1000;
        if (markers)
            j += R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n) + R"(","pid":1,"tid":1,"ts":)" +
                 std::to_string(t) + R"(,"dur":)" + std::to_string(dur) + "},\n";
        j += R"({"ph":"X","cat":"cpu_op","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":)" +
             std::to_string(t) + R"(,"dur":)" + std::to_string(int64_t(loadMs) * 1000) + "},\n";
        const int64_t launch = t + int64_t(loadMs) * 1000;
        j += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + std::to_string(launch) +
             R"(,"dur":5,"args":{"correlation":)" + std::to_string(n) + "}},\n";
        j += R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + std::to_string(launch + 5) + R"(,"dur":)" +
             std::to_string(int64_t(kernelMs) * 1000 - 5) + R"(,"args":{"device":0,"stream":7,"correlation":)" + std::to_string(n) +
             "}},\n";
        t += dur;
    }
    j += R"({"ph":"i","name":"end","pid":1,"tid":1,"ts":)" + std::to_string(t) + R"(,"s":"t"}]})";
    return j;
}

std::string write(const QTemporaryDir &dir, const std::string &name, const std::string &text) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path) << text;
    return path;
}





const QString kLoader = QStringLiteral("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    // Base: 2 steps of 60 ms loading + a 40 ms kernel. New: 3 steps of 2 ms loading + a 48 ms kernel.
    // Mean step 100 → 50 ms (-50 %), input 60 → 2 ms per step (-58), device_compute 40 → 48 (+8;
    // each kernel starts 5 µs after its launch), the DataLoader op -58 ms per step, gemm +8 ms per
    // step; batch 10: 100 → 200 samples/s; the DataLoader finding (input > 5 %) resolved.
    void handBuiltPair() {
        QTemporaryDir dir;
        const std::string base = write(dir, "base.pt.trace.json", trainingLoop(2, 60, 40));
        const std::string next = write(dir, "new.pt.trace.json", trainingLoop(3, 2, 48));
        const auto r = runCli({"compare", base, next, "--format", "json", "--batch-size", "10"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        QCOMPARE(c["stepscope_compare"].toInt(), 1);
        QCOMPARE(c["base"].toObject()["steps"].toInt(), 2);
        QCOMPARE(c["new"].toObject()["steps"].toInt(), 3);
        QCOMPARE(c["base"].toObject()["label"].toString(), QString::fromStdString(base));
        QCOMPARE(c["base"].toObject()["step_time_ms"].toObject()["mean"].toDouble(), 100.0);
        QCOMPARE(c["new"].toObject()["step_time_ms"].toObject()["mean"].toDouble(), 50.0);
        QCOMPARE(c["step_time_change_pct"].toDouble(), -50.0);
        QCOMPARE(c["base"].toObject()["samples_per_s"].toDouble(), 100.0);
        QCOMPARE(c["new"].toObject()["samples_per_s"].toDouble(), 200.0);
        QCOMPARE(c["samples_per_s_change_pct"].toDouble(), 100.0);
        QCOMPARE(c["base"].toObject()["bottleneck"].toString(), QStringLiteral("input"));
        const QJsonObject input = categoryOf(c, "input");
        QCOMPARE(input["base_ms"].toDouble(), 60.0);
        QCOMPARE(input["new_ms"].toDouble(), 2.0);
        QCOMPARE(input["delta_ms"].toDouble(), -58.0);
        const QJsonObject compute = categoryOf(c, "device_compute");
        QCOMPARE(compute["base_ms"].toDouble(), 39.995);
        QCOMPARE(compute["new_ms"].toDouble(), 47.995);
        QCOMPARE(compute["delta_ms"].toDouble(), 8.0);
        const QJsonArray ops = c["ops"].toArray();
        QCOMPARE(ops[0].toObject()["name"].toString(), kLoader);  // the biggest change first
        const QJsonObject loader = opOf(c, kLoader);
        QCOMPARE(loader["side"].toString(), QStringLiteral("host"));
        QVERIFY(loader["device"].isNull());
        QCOMPARE(loader["base_total_ms"].toDouble(), 120.0);
        QCOMPARE(loader["new_total_ms"].toDouble(), 6.0);
        QCOMPARE(loader["delta_ms"].toDouble(), -58.0);
        QCOMPARE(loader["status"].toString(), QStringLiteral("changed"));
        const QJsonObject gemm = opOf(c, "gemm");
        QCOMPARE(gemm["side"].toString(), QStringLiteral("device"));
        QCOMPARE(gemm["device"].toInt(), 0);
        QCOMPARE(gemm["base_count"].toInt(), 2);
        QCOMPARE(gemm["new_count"].toInt(), 3);
        QCOMPARE(gemm["delta_ms"].toDouble(), 8.0);
        QCOMPARE(gemm["status"].toString(), QStringLiteral("changed"));
        QVERIFY(rulesOf(c, "resolved").contains(QStringLiteral("pt_dataloader")));
        QVERIFY(!rulesOf(c, "kept").contains(QStringLiteral("pt_dataloader")));
        bool lengths = false;
        for (const QJsonValue &n : c["notes"].toArray()) lengths |= n.toString().contains(QStringLiteral("2 and 3 steps"));
        QVERIFY(lengths);
    }

    // The generator's input-bound loop against the same seed without the bottleneck: the GPU work
    // is identical (every device op "same", device_compute delta 0), the input goes.
    void generatedPair() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        for (const auto &[name, b] : {std::pair{"input", synth::Bottleneck::Input}, std::pair{"none", synth::Bottleneck::None}}) {
            synth::SyntheticProfileOptions o;
            o.steps = 12;
            o.seed = 5;
            o.bottleneck = b;
            synth::SyntheticProfileGenerator(o).generate(root / name / "trace.pt.trace.json.gz", {});
        }
        const auto r = runCli({"compare", (root / "input").string(), (root / "none").string(), "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        QCOMPARE(categoryOf(c, "device_compute")["delta_ms"].toDouble(), 0.0);
        const QJsonObject input = categoryOf(c, "input");
        QVERIFY(input["base_ms"].toDouble() > 80);
        QVERIFY(input["new_ms"].toDouble() < 0.02 * input["base_ms"].toDouble());
        for (const QJsonValue &v : c["ops"].toArray())
            if (v.toObject()["side"].toString() == QStringLiteral("device"))
                QCOMPARE(v.toObject()["status"].toString(), QStringLiteral("same"));
        QCOMPARE(c["ops"].toArray()[0].toObject()["name"].toString(), kLoader);
        QCOMPARE(c["base"].toObject()["bottleneck"].toString(), QStringLiteral("input"));
        QCOMPARE(c["new"].toObject()["bottleneck"].toString(), QStringLiteral("device_compute"));
        // TensorFlow's input-bound rule says "Not input-bound" (info) after the fix: resolved, not kept.
        QVERIFY(rulesOf(c, "resolved").contains(QStringLiteral("tf_input_bound")));
        QVERIFY(!rulesOf(c, "kept").contains(QStringLiteral("tf_input_bound")));
        QCOMPARE(c["findings"].toObject()["titles"].toObject()["tf_input_bound"].toString(), QStringLiteral("Highly input-bound"));
    }

    // The same loop with one deliberately inefficient kernel added (20 ms per step): the kernel is
    // "new", the biggest change, and the GPU compute grows by about its time.
    void addedInefficientKernel() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        for (const auto &[name, ms] : {std::pair{"plain", 0}, std::pair{"slow", 20}}) {
            synth::SyntheticProfileOptions o;
            o.steps = 10;
            o.seed = 4;
            o.inefficientKernelMs = ms;
            synth::SyntheticProfileGenerator(o).generate(root / name / "trace.pt.trace.json.gz", {});
        }
        const auto r = runCli({"compare", (root / "plain").string(), (root / "slow").string(), "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        const QString slow = QString::fromLatin1(synth::StepSimulator::kInefficientKernel.data(),
                                                 qsizetype(synth::StepSimulator::kInefficientKernel.size()));
        const QJsonObject kernel = opOf(c, slow);
        QCOMPARE(kernel["status"].toString(), QStringLiteral("new"));
        QCOMPARE(kernel["side"].toString(), QStringLiteral("device"));
        QCOMPARE(kernel["delta_ms"].toDouble(), 20.0);
        // Among the biggest changes: with it, the host's wait for the GPU (loss.item, its
        // _local_scalar_dense and their cudaStreamSynchronize) grows by the same 20 ms.
        bool top = false;
        for (int i = 0; i < 4; ++i) top |= c["ops"].toArray()[i].toObject()["name"].toString() == slow;
        QVERIFY(top);
        const double sync = opOf(c, "cudaStreamSynchronize")["delta_ms"].toDouble();
        QVERIFY2(sync > 17 && sync < 23, qPrintable(QString::number(sync)));
        const double compute = categoryOf(c, "device_compute")["delta_ms"].toDouble();
        QVERIFY2(compute > 17 && compute < 23, qPrintable(QString::number(compute)));
        QVERIFY(c["step_time_change_pct"].toDouble() > 0);
        QCOMPARE(opOf(c, "aten::cumsum")["status"].toString(), QStringLiteral("new"));
    }

    // --steps applies to both sides: one step each.
    void stepsOnBothSides() {
        QTemporaryDir dir;
        const std::string base = write(dir, "base.pt.trace.json", trainingLoop(4, 60, 40));
        const std::string next = write(dir, "new.pt.trace.json", trainingLoop(4, 2, 48));
        const auto r = runCli({"compare", base, next, "--format", "json", "--steps", "2-3"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        QCOMPARE(c["base"].toObject()["steps"].toInt(), 2);
        QCOMPARE(c["new"].toObject()["steps"].toInt(), 2);
        QCOMPARE(opOf(c, kLoader)["base_total_ms"].toDouble(), 120.0);
        QCOMPARE(opOf(c, kLoader)["new_total_ms"].toDouble(), 4.0);
    }

    void selfCompareHasNoDelta() {
        const std::string demo = STEPSCOPE_BINARY_DIR "/demo";
        const auto r = runCli({"compare", demo, demo, "--format", "json", "--batch-size", "32"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        QCOMPARE(c["step_time_change_pct"].toDouble(), 0.0);
        QCOMPARE(c["samples_per_s_change_pct"].toDouble(), 0.0);
        for (const QJsonValue &v : c["categories"].toArray()) QCOMPARE(v.toObject()["delta_ms"].toDouble(), 0.0);
        const QJsonArray ops = c["ops"].toArray();
        QVERIFY(ops.size() > 20);
        for (const QJsonValue &v : ops) {
            QCOMPARE(v.toObject()["status"].toString(), QStringLiteral("same"));
            QCOMPARE(v.toObject()["delta_ms"].toDouble(), 0.0);
        }
        QVERIFY(rulesOf(c, "resolved").isEmpty());
        QVERIFY(rulesOf(c, "new").isEmpty());
        QVERIFY(!rulesOf(c, "kept").isEmpty());
    }

    // An op that only one side has is new or gone; without a batch size throughput is null; a
    // trace without step markers is compared whole, and the notes say both.
    void newGoneAndWhatIsMissing() {
        QTemporaryDir dir;
        std::string other = trainingLoop(2, 60, 40, false);
        const auto at = other.find("\"name\":\"gemm\"");
        other.replace(at, 13, "\"name\":\"gemm_v2\"");
        const std::string base = write(dir, "base.pt.trace.json", trainingLoop(2, 60, 40));
        const std::string next = write(dir, "new.pt.trace.json", other);
        const auto r = runCli({"compare", base, next, "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject c = parseJson(r.out);
        QVERIFY(c["samples_per_s_change_pct"].isNull());
        QVERIFY(c["base"].toObject()["samples_per_s"].isNull());
        QCOMPARE(opOf(c, "gemm_v2")["status"].toString(), QStringLiteral("new"));
        // One of the two gemm kernels is left, in one whole-trace step: the same 40 ms per step.
        QCOMPARE(opOf(c, "gemm")["new_count"].toInt(), 1);
        QCOMPARE(opOf(c, "gemm")["status"].toString(), QStringLiteral("same"));
        QCOMPARE(c["new"].toObject()["steps_from_markers"].toBool(), false);
        QString notes;
        for (const QJsonValue &n : c["notes"].toArray()) notes += n.toString() + "\n";
        QVERIFY2(notes.contains(QStringLiteral("no step markers")), qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("throughput not compared")), qPrintable(notes));
        // Gone: the other way round.
        const auto back = runCli({"compare", next, base, "--format", "json"});
        QCOMPARE(opOf(parseJson(back.out), "gemm_v2")["status"].toString(), QStringLiteral("gone"));
    }

    void badSides() {
        QTemporaryDir dir;
        const std::string good = write(dir, "good.pt.trace.json", trainingLoop(2, 60, 40));
        const std::string bad = write(dir, "bad.pt.trace.json", "this is not a trace");
        auto r = runCli({"compare", good, bad});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("new side (" + bad + ")") != std::string::npos, r.err.c_str());
        r = runCli({"compare", dir.filePath("missing").toStdString(), good});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("base side") != std::string::npos, r.err.c_str());
        QCOMPARE(runCli({"compare", good}).code, 1);
        QCOMPARE(runCli({"compare", good, good, "--format", "html"}).code, 1);
        QCOMPARE(runCli({"compare", good, good, "--steps", "7-9"}).code, 1);
        QCOMPARE(runCli({"compare", good, good, "--batch-size", "12abc"}).code, 1);
        // A side holding two runs needs a name.
        QTemporaryDir two;
        write(two, "a.pt.trace.json", trainingLoop(2, 60, 40));
        write(two, "b.pt.trace.json", trainingLoop(2, 30, 40));
        r = runCli({"compare", two.path().toStdString(), good});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("holds 2 runs") != std::string::npos && r.err.find("--base-run") != std::string::npos, r.err.c_str());
        r = runCli({"compare", two.path().toStdString(), good, "--base-run", "b", "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(parseJson(r.out)["base"].toObject()["run"].toString(), QStringLiteral("b"));
        QCOMPARE(parseJson(r.out)["base"].toObject()["step_time_ms"].toObject()["mean"].toDouble(), 70.0);
        // The output may not be one of the inputs.
        QCOMPARE(runCli({"compare", good, good, "-o", good}).code, 1);
    }

    void textAndMarkdownPages() {
        QTemporaryDir dir;
        const std::string base = write(dir, "base.pt.trace.json", trainingLoop(2, 60, 40));
        const std::string next = write(dir, "new.pt.trace.json", trainingLoop(3, 10, 40));
        const auto text = runCli({"compare", base, next, "--batch-size", "10"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.find("step time: 100.00 → 50.00 ms (-50.0 %, 2.00× faster)") != std::string::npos, text.out.c_str());
        QVERIFY(text.out.find("throughput: 100.0 → 200.0 samples/s (+100.0 %)") != std::string::npos);
        QVERIFY(text.out.find("findings resolved: ") != std::string::npos);
        const std::string out = dir.filePath("c.md").toStdString();
        const auto md = runCli({"compare", base, next, "--format", "markdown", "-o", out});
        QCOMPARE(md.code, 0);
        std::ifstream in(out);
        const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(page.find("# Stepscope compare") != std::string::npos);
        QVERIFY(page.find("| mean step time (ms) | 100.00 | 50.00 | **-50.0 %** 2.00× faster |") != std::string::npos);
        QVERIFY2(page.find("| input | 60.00 | 10.00 | -50.00 |") != std::string::npos, page.c_str());
        QVERIFY(page.find("enumerate\\(DataLoader\\)") != std::string::npos);  // names escaped
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"

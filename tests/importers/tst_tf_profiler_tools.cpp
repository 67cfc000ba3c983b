// The TensorFlow profiler's own analysis files (overview_page, input_pipeline, tensorflow_stats,
// kernel_stats .pb): TfProfilerToolParser on messages built here with the wire-compatible schema,
// damaged files (a clear import_log warning naming the file and the reason, the trace beside it still
// imported), and the cross-check end to end: a TF trace with its overview page in one profile run
// folder gives `runs[].cross_checks` with TensorFlow's figure beside Stepscope's, and a difference of
// more than 10 points is a finding.

#include "importers/tfprofiler/tf_profiler_tool_parser.h"
#include "importers/tfprofiler/tf_profiler_tools.pb.h"
#include "models/analysis/rules/cross_checks.h"
#include "models/analysis/report/report_formatter.h"
#include "tests/analysis/import_helper.h"
#include "tests/importers/import_test_support.h"
#include "tests/importers/tf_profiler_messages.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {

void writeBytes(const fs::path &p, const std::string &bytes) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
}

// A CPU-only TF trace: `n` executions of the training function, each `stepUs` long with `inputUs` of
// IteratorGetNext at its start, back to back.
std::string tfTrace(int n, double stepUs, double inputUs) {
    std::string out = R"({"traceEvents":[{"ph":"M","pid":49,"name":"process_name","args":{"name":"/host:CPU"}})";
    for (int k = 0; k < n; ++k) {
        const double t = 1000 + k * stepUs;
        out += ",{\"pid\":49,\"tid\":1,\"ph\":\"X\",\"name\":\"EagerExecute: __inference_train_function_7\",\"ts\":" +
               std::to_string(t) + ",\"dur\":" + std::to_string(stepUs) + "}";
        out += ",{\"pid\":49,\"tid\":1,\"ph\":\"X\",\"name\":\"IteratorGetNext\",\"ts\":" + std::to_string(t + 1) +
               ",\"dur\":" + std::to_string(inputUs) + "}";
    }
    return out + "]}";
}

} // namespace

class TstTfProfilerTools : public QObject {
    Q_OBJECT
private slots:
    void kinds() {
        QCOMPARE(TfProfilerToolParser::kindOf("host.overview_page.pb"), std::string("overview_page"));
        QCOMPARE(TfProfilerToolParser::kindOf("h.input_pipeline.pb"), std::string("input_pipeline"));
        QCOMPARE(TfProfilerToolParser::kindOf("h.tensorflow_stats.pb"), std::string("tensorflow_stats"));
        QCOMPARE(TfProfilerToolParser::kindOf("h.kernel_stats.pb"), std::string("kernel_stats"));
        QCOMPARE(TfProfilerToolParser::kindOf("h.xplane.pb"), std::string());
        QCOMPARE(TfProfilerToolParser::kindOf(".overview_page.pb"), std::string());
    }

    void inputPipelineFigure() {
        const std::vector<StepFigures> steps = {{200, 1, 0.5}, {500, 300, 2}, {1100, 900, 10}};
        // Without TF's own input_percent field: recomputed from the per-step details.
        const ToolVerdict v = TfProfilerToolParser::read("input_pipeline", inputPipeline(steps, 0).SerializeAsString());
        QVERIFY2(v.error.empty(), v.error.c_str());
        QVERIFY(v.inputPct);
        QVERIFY(std::abs(*v.inputPct - sumInputPct(steps)) < 1e-9);
        QCOMPARE(v.steps, int64_t(steps.size()));
        QCOMPARE(v.deviceType, std::string("GPU"));
        QCOMPARE(v.topOps.size(), size_t(2));
        QCOMPARE(v.topOps[0].name, std::string("Iterator::Model::ParallelMapV2"));
        QCOMPARE(v.topOps[0].selfPct, 75.0);
        // TF's own field wins where the profiler wrote it.
        const ToolVerdict own = TfProfilerToolParser::read("input_pipeline", inputPipeline(steps, 42.5).SerializeAsString());
        QCOMPARE(*own.inputPct, 42.5);
    }

    void overviewPage() {
        const std::vector<StepFigures> steps = {{100, 60, 1}, {100, 62, 0}};
        const std::string sentence = "Your program is HIGHLY input-bound because 61.5% of the total step time sampled is waiting for input.";
        const ToolVerdict v = TfProfilerToolParser::read("overview_page", overview(steps, sentence).SerializeAsString());
        QVERIFY2(v.error.empty(), v.error.c_str());
        QCOMPARE(v.verdict, sentence);
        QCOMPARE(v.deviceType, std::string("GPU"));
        QVERIFY(std::abs(*v.inputPct - sumInputPct(steps)) < 1e-9);
        QCOMPARE(v.topOps.front().name, std::string("big_conv"));  // largest first
        QCOMPARE(v.topOps.front().selfPct, 40.0);
    }

    void statsFiles() {
        wire::TfStatsDatabase db;
        db.set_device_type("GPU");
        for (auto [type, name, us] : {std::tuple{"IDLE", "IDLE", 900.0}, std::tuple{"Conv2D", "conv", 75.0}, std::tuple{"Relu", "relu", 25.0}}) {
            auto *r = db.mutable_without_idle()->add_tf_stats_record();
            r->set_op_type(type);
            r->set_op_name(name);
            r->set_host_or_device("Device");
            r->set_total_self_time_in_us(us);
        }
        const ToolVerdict s = TfProfilerToolParser::read("tensorflow_stats", db.SerializeAsString());
        QCOMPARE(s.topOps.size(), size_t(2));  // IDLE is not an op
        QCOMPARE(s.topOps[0].name, std::string("conv"));
        QCOMPARE(s.topOps[0].selfPct, 75.0);
        QVERIFY(!s.inputPct);
        wire::KernelStatsDb k;
        auto *kr = k.add_reports();
        kr->set_name("volta_sgemm");
        kr->set_total_duration_ns(30);
        kr->set_op_name("MatMul");
        kr = k.add_reports();
        kr->set_name("relu_kernel");
        kr->set_total_duration_ns(10);
        const ToolVerdict ks = TfProfilerToolParser::read("kernel_stats", k.SerializeAsString());
        QCOMPARE(ks.topOps[0].name, std::string("volta_sgemm"));
        QCOMPARE(ks.topOps[0].selfPct, 75.0);
    }

    void damagedFilesAreClearWarnings() {
        const std::string whole = overview({{100, 60, 1}}, "sentence").SerializeAsString();
        for (const std::string &bytes : {whole.substr(0, whole.size() / 2), std::string("\x12\xff\xff\xff\x7f\x01", 6), std::string()}) {
            const ToolVerdict v = TfProfilerToolParser::read("overview_page", bytes);
            QVERIFY2(!v.error.empty(), "a damaged file must say why");
        }
        // Through the importer: the trace beside it is imported, the damaged file is a warning naming it.
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "plugins/profile/2024_01_01_00_00_00";
        writeBytes(run / "host.trace.json", tfTrace(3, 1000, 100));
        writeBytes(run / "host.overview_page.pb", whole.substr(0, whole.size() / 2));
        const auto s = test::importPaths({dir.path().toStdString()});
        const QStringList log = test::queryRows(*s.store, "SELECT severity, code FROM import_log WHERE file LIKE '%overview_page.pb'");
        QCOMPARE(log, QStringList({"warning|malformed_protobuf"}));
        QCOMPARE(test::queryRows(*s.store, "SELECT count(*) FROM tool_verdict"), QStringList({"0"}));
        QCOMPARE(test::queryRows(*s.store, "SELECT status FROM source WHERE path LIKE '%trace.json'"), QStringList({"ok"}));
    }

    void crossCheckBesideStepscope_data() {
        QTest::addColumn<double>("tfWaitMs");
        QTest::addColumn<bool>("agree");
        QTest::newRow("agree") << 31.0 << true;     // TF: ~31 %, Stepscope: 30 %
        QTest::newRow("disagree") << 75.0 << false;  // TF: 75 %
    }
    void crossCheckBesideStepscope() {
        QFETCH(double, tfWaitMs);
        QFETCH(bool, agree);
        QTemporaryDir dir;
        const fs::path run = fs::path(dir.path().toStdString()) / "plugins/profile/2024_01_01_00_00_00";
        writeBytes(run / "host.trace.json", tfTrace(4, 10'000, 3'000));  // 30 % IteratorGetNext
        const std::vector<StepFigures> tfSteps(4, StepFigures{100, tfWaitMs, 0});
        writeBytes(run / "host.overview_page.pb", overview(tfSteps, "Your program is input-bound.").SerializeAsString());
        const test::ImportedSession s({dir.path().toStdString()});
        const Report r = s.report();
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QCOMPARE(a.crossChecks.size(), size_t(1));
        const CrossCheck &c = a.crossChecks[0];
        QCOMPARE(c.tool, std::string("tensorflow_profiler"));
        QVERIFY(std::abs(*c.inputPct - sumInputPct(tfSteps)) < 1e-9);
        QVERIFY(std::abs(c.stepscopeInputPct - (a.categoryPct(Category::Input) + a.categoryPct(Category::H2D))) < 1e-9);
        QCOMPARE(*c.agree, agree);
        QCOMPARE(*c.agree, std::abs(*c.inputPct - c.stepscopeInputPct) <= CrossChecks::kAgreePoints);
        bool finding = false;
        for (const Finding &f : a.findings) finding = finding || f.rule == "tf_profiler_disagrees";
        QCOMPARE(finding, !agree);
        QVERIFY(CrossChecks::describe(c).starts_with("TensorFlow profiler: "));
        // The report's JSON carries it under runs[].cross_checks.
        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r))).object();
        const QJsonObject j = root["runs"].toArray()[0].toObject()["cross_checks"].toArray()[0].toObject();
        QCOMPARE(j["tool"].toString(), QString("tensorflow_profiler"));
        QCOMPARE(j["agree"].toBool(), agree);
        QVERIFY(j["file"].toString().endsWith("host.overview_page.pb"));
        QCOMPARE(j["verdict"].toString(), QString("Your program is input-bound."));
        QVERIFY(std::abs(j["input_pct"].toDouble() - std::round(sumInputPct(tfSteps) * 100) / 100) < 1e-9);
        QVERIFY(j.contains("stepscope_input_pct"));
    }
};

QTEST_GUILESS_MAIN(TstTfProfilerTools)
#include "tst_tf_profiler_tools.moc"

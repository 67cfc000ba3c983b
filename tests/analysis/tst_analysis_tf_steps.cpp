// TensorFlow 2 runs without step markers: each execution of the Keras training function is a step
// (TrainFunctionSteps, found at import and written to the step table), on a TF trace JSON built here (the shape TF 2.3's trace.json.gz has: a
// /host:CPU process, `train_function` ⊃ `EagerExecute: __inference_train_function_N` ⊃ …, the
// function run again on an executor thread), CPU-only; and on the generator's XPlane written with
// PyTorch-style markers, TensorFlow's Keras marker `train` (step_num) and no markers at all, which
// must agree on the steps and the verdict. Also the tf.data stage analysis (TfDataPipeline) that
// decides io vs preprocessing and is named in the input-bound finding.

#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_logdir_writer.h"
#include "models/analysis/report/report_formatter.h"
#include "models/store/sqlite_statement.h"
#include "models/trace/train_function_steps.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {

// One Keras step in the TF trace JSON (times in µs as TF writes them).
struct TfStep {
    double start, dur, inputDur;  // the training function, and the IteratorGetNext at its start
};

// A TF 2 trace: `train_function` (Python) ⊃ EagerExecute ⊃ EagerLocalExecute per step, the input wait
// at the start of each, the same function on an executor thread, and an IteratorGetNext before the
// first execution (the first step's lead-in). CPU-only: no device process.
std::string tfTraceJson(const std::vector<TfStep> &steps, double leadIn) {
    std::string out = R"({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[)"
                      R"({"ph":"M","pid":49,"name":"process_name","args":{"name":"/host:CPU"}},)"
                      R"({"ph":"M","pid":49,"tid":1,"name":"thread_name","args":{"name":"python3"}},)"
                      R"({"ph":"M","pid":49,"tid":2,"name":"thread_name","args":{"name":"tf_Compute"}})";
    auto x = [&](int tid, const std::string &name, double ts, double dur) {
        out += ",{\"pid\":49,\"tid\":" + std::to_string(tid) + ",\"ph\":\"X\",\"name\":\"" + name +
               "\",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + "}";
    };
    x(1, "IteratorGetNextAsOptional", steps.front().start - leadIn, leadIn);
    for (const TfStep &s : steps) {
        x(1, "train_function", s.start, s.dur);
        x(1, "EagerExecute: __inference_train_function_7724", s.start + 1, s.dur - 2);
        x(1, "EagerLocalExecute: __inference_train_function_7724", s.start + 2, s.dur - 4);
        x(1, "IteratorGetNext", s.start + 3, s.inputDur);
        x(2, "__inference_train_function_7724", s.start + 3 + s.inputDur, s.dur - s.inputDur - 10);
        x(2, "MatMul", s.start + 4 + s.inputDur, s.dur - s.inputDur - 20);
    }
    return out + "]}";
}

fs::path writeText(const QTemporaryDir &dir, const std::string &name, const std::string &text) {
    const fs::path p = fs::path(dir.path().toStdString()) / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p;
}

// Runs one query; each row's columns joined by '|'.
std::vector<std::string> rows(const SessionStore &store, const std::string &sql) {
    SqliteStatement st(store.db(), sql);
    std::vector<std::string> out;
    while (st.step()) {
        std::string row;
        for (int c = 0; c < st.columnCount(); ++c) row += (c ? "|" : "") + st.columnText(c);
        out.push_back(row);
    }
    return out;
}

double inputPct(const RunAnalysis &a) { return a.categoryPct(Category::Input) + a.categoryPct(Category::H2D); }

} // namespace

class TstAnalysisTfSteps : public QObject {
    Q_OBJECT
private slots:
    void trainFunctionExecutionsAreSteps() {
        const std::vector<TfStep> steps = {{1000, 5000, 3000}, {6100, 4000, 1500}, {10200, 6000, 4000}};
        const double leadIn = 400;
        QTemporaryDir dir;
        const fs::path trace = writeText(dir, "plugins/profile/2020_08_05_13_37_44/host.trace.json", tfTraceJson(steps, leadIn));
        const ImportedSession s({trace});
        const Report r = s.report();
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QCOMPARE(std::string(stepSourceName(a.steps.source)), std::string("tf_train_function"));
        QVERIFY(a.steps.hasSteps());
        QCOMPARE(a.steps.steps.size(), steps.size());
        // Step k runs from the end of execution k-1 to the end of its own; the first from the lead-in.
        double expectedTotal = 0, expectedInput = 0;
        for (size_t k = 0; k < steps.size(); ++k) {
            const double from = k == 0 ? steps[0].start - leadIn : steps[k - 1].start + steps[k - 1].dur;
            const double to = steps[k].start + steps[k].dur;
            QCOMPARE(a.steps.steps[k].step, int64_t(k));
            QCOMPARE(double(a.steps.steps[k].hostEnd - a.steps.steps[k].hostStart), (to - from) * 1000);
            expectedTotal += to - from;
            expectedInput += steps[k].inputDur + (k == 0 ? leadIn : 0);
        }
        QVERIFY(!a.gpuTraced);  // CPU-only works
        QCOMPARE(a.bottleneck, std::string("input"));
        QVERIFY2(std::abs(inputPct(a) - 100 * expectedInput / expectedTotal) < 0.01,
                 qPrintable(QString::number(inputPct(a)) + " vs " + QString::number(100 * expectedInput / expectedTotal)));
        // The report says how the steps were found.
        const std::string json = ReportFormatter::json(r);
        QVERIFY(json.find("\"step_source\": \"tf_train_function\"") != std::string::npos);
        // The steps are imported data: v_step (and so the timeline's step row) holds them, and the run
        // says where they came from.
        QCOMPARE(rows(*s.store, "SELECT step_source FROM run"), std::vector<std::string>{"tf_train_function"});
        const std::vector<std::string> stored = rows(*s.store, "SELECT step, dur_ns FROM v_step ORDER BY step");
        QCOMPARE(stored.size(), steps.size());
        for (size_t k = 0; k < steps.size(); ++k)
            QCOMPARE(stored[k], std::to_string(k) + "|" +
                                    std::to_string(a.steps.steps[k].hostEnd - a.steps.steps[k].hostStart));
    }

    // A session imported before run.step_source existed has no step rows for such a run: the analysis
    // still finds the training function's executions in the trace.
    void sessionFromBeforeStepSource() {
        const std::vector<TfStep> steps = {{1000, 5000, 3000}, {6100, 4000, 1500}};
        QTemporaryDir dir;
        const ImportedSession s({writeText(dir, "host.trace.json", tfTraceJson(steps, 400))});
        const RunAnalysis fresh = s.report().runs.at(0).analysis;
        sqliteExec(s.store->db(), "DELETE FROM step; UPDATE run SET step_source = NULL");
        const RunAnalysis legacy = s.report().runs.at(0).analysis;
        QCOMPARE(std::string(stepSourceName(legacy.steps.source)), std::string("tf_train_function"));
        QCOMPARE(legacy.steps.steps.size(), fresh.steps.steps.size());
        for (size_t k = 0; k < steps.size(); ++k) {
            QCOMPARE(legacy.steps.steps[k].start, fresh.steps.steps[k].start);
            QCOMPARE(legacy.steps.steps[k].end, fresh.steps.steps[k].end);
        }
        QCOMPARE(legacy.bottleneck, fresh.bottleneck);
    }

    void stepSourceOtherwise() {
        // No training function: the whole trace is one step.
        QTemporaryDir dir;
        std::string plain = tfTraceJson({{1000, 5000, 3000}}, 100);
        for (const char *n : {"train_function", "EagerExecute: __inference_train_function_7724",
                              "EagerLocalExecute: __inference_train_function_7724", "__inference_train_function_7724"})
            for (size_t at; (at = plain.find(std::string("\"") + n + "\"")) != std::string::npos;)
                plain.replace(at, std::strlen(n) + 2, "\"SomethingElse\"");
        const ImportedSession s({writeText(dir, "plain.trace.json", plain)});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        QCOMPARE(std::string(stepSourceName(a.steps.source)), std::string("whole_trace"));
        QCOMPARE(a.steps.steps.size(), size_t(1));
        // Step markers win over the training function.
        AnalysisFixture f;
        f.step(1, 0, 10 * kMs);
        f.slice(f.host, "EagerExecute: __inference_train_function_1", "", 0, 4 * kMs);
        f.slice(f.host, "EagerExecute: __inference_train_function_1", "", 5 * kMs, 9 * kMs);
        const RunAnalysis m = f.analyze();
        QCOMPARE(std::string(stepSourceName(m.steps.source)), std::string("markers"));
        QCOMPARE(m.steps.steps.size(), size_t(1));
    }

    void trainFunctionNames() {
        using Role = TrainFunctionSteps::Role;
        QCOMPARE(TrainFunctionSteps::roleOf("EagerExecute: __inference_train_function_7724"), Role::Execution);
        QCOMPARE(TrainFunctionSteps::roleOf("__inference_train_function_12"), Role::Execution);
        QCOMPARE(TrainFunctionSteps::roleOf("__inference_distributed_train_function_3"), Role::Execution);
        QCOMPARE(TrainFunctionSteps::roleOf("train_function"), Role::Execution);
        QCOMPARE(TrainFunctionSteps::roleOf("IteratorGetNextAsOptional"), Role::InputWait);
        QCOMPARE(TrainFunctionSteps::roleOf("__inference_test_function_99"), Role::None);
        QCOMPARE(TrainFunctionSteps::roleOf("__inference_predict_function_1"), Role::None);
    }

    // The same simulated loop as XPlane with three kinds of step marking: the steps and the verdict
    // must not depend on it.
    void syntheticXPlaneWithAndWithoutMarkers() {
        synth::SyntheticProfileOptions o;
        o.steps = 6;
        o.bottleneck = synth::Bottleneck::Input;
        o.kernelsPerStep = 30;
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const fs::path chrome = root / "chrome" / "trace.pt.trace.json.gz";
        synth::SyntheticProfileGenerator(o).generate(chrome, {});
        struct Mode {
            synth::XPlaneStepMarkers markers;
            const char *name, *source;
        };
        std::vector<RunAnalysis> runs;
        for (const Mode &m : {Mode{synth::XPlaneStepMarkers::ProfilerStep, "profiler_step", "markers"},
                              Mode{synth::XPlaneStepMarkers::TfTrain, "tf", "markers"},
                              Mode{synth::XPlaneStepMarkers::None, "none", "tf_train_function"}}) {
            synth::XPlaneLogdirOptions xo;
            xo.stepMarkers = m.markers;
            const auto x = synth::writeXPlaneLogdir(o, root / m.name, xo, chrome);
            const ImportedSession s({x.file});
            runs.push_back(s.report().runs.at(0).analysis);
            QCOMPARE(std::string(stepSourceName(runs.back().steps.source)), std::string(m.source));
            QCOMPARE(rows(*s.store, "SELECT step_source FROM run"), std::vector<std::string>{m.source});
            QCOMPARE(rows(*s.store, "SELECT count(*) FROM v_step"), std::vector<std::string>{std::to_string(o.steps)});
            QCOMPARE(runs.back().steps.steps.size(), size_t(o.steps));
        }
        for (size_t i = 1; i < runs.size(); ++i) {
            QCOMPARE(runs[i].bottleneck, runs[0].bottleneck);
            for (size_t k = 0; k < runs[0].steps.steps.size(); ++k)
                QCOMPARE(runs[i].steps.steps[k].end, runs[0].steps.steps[k].end);
            QVERIFY2(std::abs(inputPct(runs[i]) - inputPct(runs[0])) < 1.0,
                     qPrintable(QString::number(inputPct(runs[i])) + " vs " + QString::number(inputPct(runs[0]))));
        }
        QCOMPARE(runs[0].bottleneck, std::string("input"));
    }

    // A tf.data pipeline Model → ParallelMapV2 → TFRecord under the input wait: the stage with the
    // most self time decides io vs preprocessing, and the input-bound finding names it.
    void tfDataCostliestStage_data() {
        QTest::addColumn<int>("mapSelfMs");
        QTest::addColumn<int>("readMs");
        QTest::addColumn<QString>("detail");
        QTest::addColumn<QString>("stage");
        QTest::newRow("map dominates") << 30 << 6 << "preprocessing" << "ParallelMapV2";
        QTest::newRow("reading dominates") << 4 << 30 << "io" << "TFRecord";
    }
    void tfDataCostliestStage() {
        QFETCH(int, mapSelfMs);
        QFETCH(int, readMs);
        QFETCH(QString, detail);
        AnalysisFixture f;
        const int64_t reader = f.thread("tf_data_private_threadpool");
        int64_t t = 0;
        for (int step = 0; step < 3; ++step) {
            const int64_t input = int64_t(mapSelfMs + readMs + 2) * kMs, compute = 5 * kMs;
            f.step(step, t, t + input + compute);
            f.slice(f.host, "IteratorGetNext", "", t, t + input);
            f.slice(f.host, "Iterator::Model", "", t, t + input);
            f.slice(f.host, "Iterator::Model::ParallelMapV2", "", t + 1 * kMs, t + input - 1 * kMs);
            f.slice(reader, "Iterator::Model::ParallelMapV2::TFRecord", "", t + 1 * kMs, t + 1 * kMs + readMs * kMs);
            f.slice(f.host, "Iterator::Model::ParallelMapV2::TFRecord", "", t + 1 * kMs, t + 1 * kMs + readMs * kMs);
            f.slice(f.host, "MatMul", "", t + input, t + input + compute);
            // tf.data prefetching on its own thread while the step computes: not input time.
            f.slice(reader, "Iterator::Model::ParallelMapV2::TFRecord", "", t + input, t + input + compute);
            t += input + compute;
        }
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.bottleneck, std::string("input"));
        QCOMPARE(a.categoryNs(Category::Input), int64_t(3) * (mapSelfMs + readMs + 2) * kMs);  // IteratorGetNext only
        QCOMPARE(QString::fromStdString(a.bottleneckDetail), detail);
        const TfDataStage *top = a.tfData.costliestLabelled();
        QVERIFY(top);
        QTEST(QString::fromStdString(top->kind), "stage");
        // Self time: the map stage's span minus the TFRecord stage nested in it on the same thread.
        for (const TfDataStage &s : a.tfData.stages)
            if (s.kind == "ParallelMapV2") QCOMPARE(s.selfNs, int64_t(3) * mapSelfMs * kMs);
        bool named = false;
        for (const Finding &fi : a.findings)
            named = named || (fi.rule == "tf_input_bound" && fi.detail.find(top->name) != std::string::npos);
        QVERIFY(named);
    }
};

QTEST_GUILESS_MAIN(TstAnalysisTfSteps)
#include "tst_analysis_tf_steps.moc"

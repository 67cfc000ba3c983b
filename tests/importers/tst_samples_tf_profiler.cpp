// The TensorFlow profiler's files in ../shared/samples: XProf's demo analysis files (xprof/demo_data,
// a GPU run whose input turns slow after step 3) read by TfProfilerToolParser and imported, and the
// TF 2.3 trace.json.gz of smdebug's tfprofiler logdir, which has no step markers: its training
// function's execution is the step. Skips when the samples are absent.
//
// The demo's .json files are not renderings of these .pb files (they hold a TPU capture, 84.8 %
// input-bound; the .pb a GPU one), so the readers are checked against what each .pb states itself:
// the input-bound figure recomputed from its per-step details must be the one in TensorFlow's own
// sentence, and the overview page's embedded input analysis must match input_pipeline.pb.

#include "importers/tfprofiler/tf_profiler_tool_parser.h"
#include "models/analysis/report/report_builder.h"
#include "tests/analysis/import_helper.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

ToolVerdict readTool(const fs::path &file) {
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly)) {
        ToolVerdict failed;
        failed.error = "cannot open " + file.string();
        return failed;
    }
    const QByteArray bytes = f.readAll();
    return TfProfilerToolParser::read(TfProfilerToolParser::kindOf(file.filename().string()),
                                      std::string_view(bytes.constData(), size_t(bytes.size())));
}

} // namespace

class TstSamplesTfProfiler : public QObject {
    Q_OBJECT
private slots:
    void demoInputFigureIsTensorFlowsOwn() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const fs::path demo = samples / "xprof/demo_data";
        const ToolVerdict page = readTool(demo / "profile_demo.overview_page.pb");
        const ToolVerdict input = readTool(demo / "profile_demo.input_pipeline.pb");
        QVERIFY2(page.error.empty(), page.error.c_str());
        QVERIFY2(input.error.empty(), input.error.c_str());
        QVERIFY(page.inputPct && input.inputPct);
        QVERIFY(page.steps > 0);
        QCOMPARE(page.steps, input.steps);
        QCOMPARE(*page.inputPct, *input.inputPct);
        QCOMPARE(page.deviceType, input.deviceType);
        // "Your program is HIGHLY input-bound because 68.9% of the total step time sampled is waiting for input."
        const auto m = QRegularExpression("because ([0-9.]+)% of the total step time").match(QString::fromStdString(page.verdict));
        QVERIFY2(m.hasMatch(), page.verdict.c_str());
        QVERIFY2(std::abs(m.captured(1).toDouble() - *page.inputPct) < 0.05,
                 qPrintable(m.captured(1) + " vs " + QString::number(*page.inputPct)));
        QVERIFY(!page.topOps.empty());
        for (size_t i = 1; i < page.topOps.size(); ++i) QVERIFY(page.topOps[i - 1].selfPct >= page.topOps[i].selfPct);
        QVERIFY(!input.topOps.empty());
        QVERIFY(QString::fromStdString(input.topOps.front().name).startsWith("Iterator::"));
    }

    void demoStatsAndImport() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const ToolVerdict stats = readTool(samples / "xprof/demo_data/profile_demo.tensorflow_stats.pb");
        QVERIFY2(stats.error.empty(), stats.error.c_str());
        QVERIFY(!stats.topOps.empty());
        for (const ToolTopOp &op : stats.topOps) QVERIFY(op.name != "IDLE");
        // The folder through the importers: three analysis files, each one verdict row.
        const auto s = test::importPaths({samples / "xprof/demo_data"});
        QCOMPARE(test::queryRows(*s.store, "SELECT kind, status FROM tool_verdict v JOIN source s ON s.id = v.source_id ORDER BY kind"),
                 QStringList({"input_pipeline|ok", "overview_page|ok", "tensorflow_stats|ok"}));
    }

    void tf23TraceWithoutMarkers() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const fs::path trace = samples / "smdebug/tfprofiler_local_missing_metadata/framework/tensorflow/detailed_profiling/"
                                         "2020080513/000000000/plugins/profile/2020_08_05_13_37_44/ip-172-31-19-241.trace.json.gz";
        const test::ImportedSession s({trace});
        const Report r = s.report();
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        // One Keras step: `train_function` ⊃ `EagerExecute: __inference_train_function_7724` (63.9 ms).
        QCOMPARE(std::string(stepSourceName(a.steps.source)), std::string("tf_train_function"));
        QCOMPARE(a.steps.steps.size(), size_t(1));
        QCOMPARE(a.steps.steps[0].hostEnd - a.steps.steps[0].hostStart, int64_t(63'929'222));
    }
};

QTEST_GUILESS_MAIN(TstSamplesTfProfiler)
#include "tst_samples_tf_profiler.moc"

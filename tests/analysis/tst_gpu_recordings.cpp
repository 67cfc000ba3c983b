// Real profiles recorded on an NVIDIA H200 by scripts/record_gpu_profiles.py (tests/data/gpu): one
// small training loop as it is, and with a known phase added (a syncing callback, a slow input
// pipeline, a checkpoint), once replayed as a CUDA graph, a JAX loop with step markers, and
// nvidia-smi sampled through all of it. truth.json holds each variant's step time as measured by the
// loop itself; the analysis must agree with it.

#include "tests/analysis/import_helper.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;

namespace {

QJsonObject truth() {
    QFile f(QString::fromStdString(test::testData("gpu/truth.json").string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

double measuredMs(const QString &variant) {
    return truth()["variants"].toObject()[variant].toObject()["profiled"].toObject()["mean_ms"].toDouble();
}

double meanStepMs(const RunAnalysis &a) {
    return a.steps.steps.empty() ? 0 : double(a.steps.totalNs()) / double(a.steps.steps.size()) / 1e6;
}

std::filesystem::path recording(const std::string &name) { return test::testData("gpu/" + name); }

} // namespace

class TestGpuRecordings : public QObject {
    Q_OBJECT
private slots:
    void truthFileIsThere() {
        QCOMPARE(truth()["device"].toString(), QStringLiteral("NVIDIA H200"));
        QVERIFY(measuredMs("baseline") > 1);
    }

    // The loop's own clock and the trace's steps agree (the profiler adds ~1.6 ms a step to both).
    void stepsAndBatchAreFound() {
        for (const char *variant : {"baseline", "sync_callback", "slow_input", "checkpoint"}) {
            test::ImportedSession s({recording(std::string(variant) + ".pt.trace.json.gz")});
            const Report report = s.report();
            QCOMPARE(report.sources.size(), size_t(1));
            QCOMPARE(report.sources[0].status, std::string("ok"));
            QCOMPARE(report.runs.size(), size_t(1));
            const RunReport &run = report.runs[0];
            QCOMPARE(run.run.framework, std::string("pytorch"));
            QCOMPARE(run.run.device, std::string("NVIDIA H200"));
            const RunAnalysis &a = run.analysis;
            QCOMPARE(a.steps.steps.size(), size_t(6));
            const double measured = measuredMs(variant), found = meanStepMs(a);
            QVERIFY2(std::abs(found - measured) / measured < 0.05,
                     qPrintable(QString("%1: trace %2 ms a step, the loop measured %3 ms").arg(variant).arg(found).arg(measured)));
            QCOMPARE(a.batchSize.value_or(0), int64_t(128));
            QVERIFY(a.gpuTraced);
        }
    }

    // The phase each variant adds is the one the analysis names.
    void theAddedPhaseIsNamed() {
        test::ImportedSession callback({recording("sync_callback.pt.trace.json.gz")});
        QCOMPARE(callback.report().runs[0].analysis.bottleneck, std::string("callback"));
        test::ImportedSession checkpoint({recording("checkpoint.pt.trace.json.gz")});
        QCOMPARE(checkpoint.report().runs[0].analysis.bottleneck, std::string("checkpoint"));
        test::ImportedSession input({recording("slow_input.pt.trace.json.gz")});  // record_function("input_pipeline")
        QCOMPARE(input.report().runs[0].analysis.bottleneck, std::string("input"));
        test::ImportedSession baseline({recording("baseline.pt.trace.json.gz")});
        const Report baselineReport = baseline.report();
        const RunAnalysis &b = baselineReport.runs[0].analysis;
        QVERIFY2(b.gpuBusyPct > 50, qPrintable(QString::number(b.gpuBusyPct)));
    }

    // "Without this phase" against the same loop measured without it (issue #32). The callback reads
    // 65 values with .item() a step: each waits for the GPU, so the host cannot run ahead; removed, the
    // host's next step overlaps this step's GPU work. Before the run was re-timed as one timeline
    // (each step alone, GPU profiler annotations taken for ops) it projected 1.00x against 1.23x.
    void projectionsAgainstTheMeasuredLoop() {
        const double baseline = measuredMs("baseline");
        struct Case { const char *variant; double lowest; double within; };
        // Checkpoint and input: in these recordings the host's own work after the phase runs ~1.5x
        // slower than in the baseline run (10 ms vs 6.6 ms steps around a checkpoint, 11.7 ms after
        // the input's 25 MB flip: cold caches), which no replay of the trace can know; they are held
        // to a floor, the callback to 15 %.
        for (const Case c : {Case{"sync_callback", 0, 0.15}, Case{"checkpoint", 2.0, 0}, Case{"slow_input", 2.8, 0}}) {
            test::ImportedSession s({recording(std::string(c.variant) + ".pt.trace.json.gz")});
            const Report report = s.report();
            const RunAnalysis &a = report.runs[0].analysis;
            QVERIFY2(a.projection, c.variant);
            QCOMPARE(a.projection->method, std::string("replay"));
            const double measured = measuredMs(c.variant) / baseline, projected = a.projection->speedup;
            const QString what = QString("%1: projected %2x, measured %3x").arg(c.variant).arg(projected).arg(measured);
            if (c.within > 0) QVERIFY2(std::abs(projected - measured) / measured < c.within, qPrintable(what));
            else QVERIFY2(projected > c.lowest && projected <= measured * 1.15, qPrintable(what));
        }
    }

    // A graph launch runs many kernels under one correlation id: they are linked to that launch.
    void graphKernelsBelongToTheirLaunch() {
        test::ImportedSession s({recording("cuda_graph.pt.trace.json.gz")});
        const QStringList launches = test::queryRows(
            *s.store, "SELECT count(*) FROM slice s JOIN string n ON n.id = s.name_id WHERE n.text = 'cudaGraphLaunch'");
        QCOMPARE(launches, QStringList({"6"}));
        const QStringList kernels = test::queryRows(
            *s.store, "SELECT count(*) FROM slice k JOIN track t ON t.id = k.track_id WHERE t.kind = 'gpu_stream' AND "
                      "k.correlation IN (SELECT s.correlation FROM slice s JOIN string n ON n.id = s.name_id "
                      "WHERE n.text = 'cudaGraphLaunch')");
        QVERIFY2(kernels.value(0).toInt() > 6 * 100, qPrintable(kernels.join(',')));
    }

    void jaxStepsFromStepTraceAnnotation() {
        test::ImportedSession s({recording("jax.xplane.pb")});
        const Report report = s.report();
        QCOMPARE(report.runs.size(), size_t(1));
        const RunAnalysis &a = report.runs[0].analysis;
        QCOMPARE(report.runs[0].run.framework, std::string("jax"));
        QCOMPARE(a.steps.steps.size(), size_t(8));
        double measured = 0;
        const QJsonArray each = truth()["jax"].toObject()["each_ms"].toArray();
        for (const QJsonValue &v : each) measured += v.toDouble() / each.size();
        QVERIFY2(std::abs(meanStepMs(a) - measured) / measured < 0.05,
                 qPrintable(QString("trace %1 ms a step, the loop measured %2 ms").arg(meanStepMs(a)).arg(measured)));
    }

    void nvidiaSmiOfTheSameRun() {
        test::ImportedSession s({recording("nvidia-smi.csv")});
        QCOMPARE(test::queryRows(*s.store, "SELECT status FROM source"), QStringList({"ok"}));
        const QStringList samples = test::queryRows(
            *s.store, "SELECT count(*) FROM metric_sample m JOIN metric_series r ON r.id = m.series_id "
                      "WHERE r.name = 'gpu_util'");
        QVERIFY2(samples.value(0).toInt() > 100, qPrintable(samples.join(',')));
    }
};

QTEST_GUILESS_MAIN(TestGpuRecordings)
#include "tst_gpu_recordings.moc"

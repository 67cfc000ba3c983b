// The report on sessions that are not a GPU training trace: a CPU-only trace gets no GPU figures
// and no GPU advice (gpu_busy_pct null, "no GPU in this trace"), and a session of instance metrics
// alone says why there is no step analysis — in text, markdown and JSON alike. On two GPUs, the idle
// share of the gpu_idle finding is per GPU (the gaps of both over twice the step time), never > 100 %.

#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/report/report_builder.h"
#include "models/analysis/report/report_formatter.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/importers/import_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <fstream>

using namespace stepscope;
using namespace stepscope::test;

namespace {
// Three 100 ms steps on the CPU alone: a forward pass that takes most of each step.
void cpuSteps(AnalysisFixture &f) {
    for (int i = 0; i < 3; ++i) {
        const int64_t t = i * 100 * kMs;
        f.step(i + 1, t, t + 100 * kMs);
        f.slice(f.host, "aten::linear", "cpu_op", t, t + 30 * kMs);
    }
}

QJsonObject json(const Report &r) { return QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r))).object(); }
QString text(const Report &r) { return QString::fromStdString(ReportFormatter::text(r)); }
QString markdown(const Report &r) { return QString::fromStdString(ReportFormatter::markdown(r)); }

QStringList rules(const RunAnalysis &a) {
    QStringList out;
    for (const Finding &f : a.findings) out << QString::fromStdString(f.rule);
    return out;
}

const QString kNoGpu = QStringLiteral("no GPU in this trace: GPU busy, GPU idle gaps and GPU findings do not apply");
} // namespace

class TestReportUnusualInput : public QObject {
    Q_OBJECT
private slots:
    void cpuOnlyTraceGetsNoGpuFigures() {
        AnalysisFixture f;
        cpuSteps(f);
        f.commit();
        const Report r = ReportBuilder(f.store()).build();
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(!a.gpuTraced);
        QVERIFY(!a.gpuBusy());
        // GPU busy 0% would say "Low GPU utilization: increase the batch size" to a CPU job.
        QVERIFY2(!rules(a).contains("pt_low_gpu_utilization"), qPrintable(rules(a).join(',')));
        QVERIFY2(!rules(a).contains("gpu_idle"), qPrintable(rules(a).join(',')));
        QVERIFY2(a.bottleneckEvidence.find("kernels") == std::string::npos, a.bottleneckEvidence.c_str());

        const QJsonObject run = json(r)["runs"].toArray().at(0).toObject();
        QVERIFY(run["summary"].toObject().contains("gpu_busy_pct"));
        QVERIFY(run["summary"].toObject()["gpu_busy_pct"].isNull());
        QVERIFY(run["summary"].toObject()["compute_coverage_pct"].isNull());
        QCOMPARE(run["note"].toString(), kNoGpu);
        for (const QJsonValue &finding : run["findings"].toArray())
            QVERIFY(!finding.toObject()["title"].toString().contains("GPU"));

        const QString t = text(r);
        QVERIFY2(t.contains("  GPU busy: n/a, " + kNoGpu + "\n"), qPrintable(t));
        QVERIFY2(!t.contains("GPU idle gaps:") && !t.contains("top GPU ops"), qPrintable(t));
        const QString m = markdown(r);
        QVERIFY2(m.contains("- GPU busy: n/a, no GPU in this trace"), qPrintable(m));
        QVERIFY2(!m.contains("GPU idle:") && !m.contains("top GPU op"), qPrintable(m));
    }

    void gpuTraceKeepsItsFigures() {
        AnalysisFixture f;
        cpuSteps(f);
        const int64_t stream = f.stream(0, "stream 7");
        f.slice(stream, "gemm", "kernel", 10 * kMs, 20 * kMs);  // 10 ms of 300 ms: 3.3% busy
        f.commit();
        const Report r = ReportBuilder(f.store()).build();
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(a.gpuTraced);
        QVERIFY(rules(a).contains("pt_low_gpu_utilization"));
        const QJsonObject run = json(r)["runs"].toArray().at(0).toObject();
        QCOMPARE(run["summary"].toObject()["gpu_busy_pct"].toDouble(), 3.33);
        QVERIFY(!run.contains("note"));
        QVERIFY(text(r).contains("  GPU busy: 3.3% of step time\n"));
    }

    void metricsOnlySessionSaysWhyThereAreNoSteps() {
        QTemporaryDir dir;
        const std::filesystem::path csv = std::filesystem::path(dir.path().toStdString()) / "gpu.csv";
        std::ofstream(csv) << "timestamp, index, utilization.gpu [%]\n"
                              "2026/01/15 10:00:00.000, 0, 50 %\n2026/01/15 10:00:01.000, 0, 60 %\n";
        const ImportedPaths s = importPaths({csv});
        QCOMPARE(s.summary.sources.size(), size_t(1));
        const Report r = ReportBuilder(*s.store).build();
        QVERIFY(r.runs.empty());
        const QString note = QStringLiteral(
            "no trace with steps: only instance metrics were imported, so there is no step analysis "
            "(import a profiler trace of the same job with them)");
        QCOMPARE(QString::fromStdString(r.note), note);
        QCOMPARE(json(r)["note"].toString(), note);
        QVERIFY2(text(r).contains("\n" + note + "\n"), qPrintable(text(r)));
        QVERIFY2(markdown(r).contains("**Note:** no trace with steps: only instance metrics were imported"), qPrintable(markdown(r)));
    }

    void idleShareOfTwoGpusIsPerGpu() {
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 6;
        o.gpus = 2;
        o.bottleneck = synth::Bottleneck::KernelLaunch;
        const std::filesystem::path trace = dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        ImportedSession s({trace});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        const auto f = std::find_if(a.findings.begin(), a.findings.end(), [](const Finding &x) { return x.rule == "gpu_idle"; });
        QVERIFY(f != a.findings.end());
        const double pct = 100.0 * double(a.gaps.device.totalNs) / (2.0 * double(a.steps.totalNs()));
        QVERIFY(pct > 50 && pct < 100);
        QVERIFY2(QString::fromStdString(f->detail).startsWith("The 2 GPUs are idle on average " + QString::number(pct, 'f', 1) + "%"),
                 f->detail.c_str());
    }

    void emptySessionSaysSoToo() {
        QTemporaryDir dir;
        SessionStore store(std::filesystem::path(dir.path().toStdString()) / "empty.stepscope");
        const Report r = ReportBuilder(store).build();
        QCOMPARE(QString::fromStdString(r.note),
                 QStringLiteral("no trace with steps: nothing that was imported holds steps or a timeline"));
    }
};

QTEST_GUILESS_MAIN(TestReportUnusualInput)
#include "tst_report_unusual_input.moc"

// The report over a session of thousands of tiny runs: every run is analysed with its own steps,
// names and metrics, and the work grows with the number of runs, not its square. Work is counted
// as SQLite virtual-machine steps (a scan of a table is one step per row), never as time: per-run
// queries that read every run, every string or every metric series show up as a per-run cost that
// grows with the session.

#include "models/analysis/report/report_builder.h"
#include "models/store/session_writer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace stepscope;

namespace {
constexpr int64_t kMs = 1'000'000;

// Run k: one host thread and one GPU stream, steps 1 and 2 (10 ms each), a launch and a kernel per
// step, an op name of its own; even runs also get their own GPU utilization series (low: 20%), and
// the session one whole-machine CPU series that every run sees.
void writeRuns(SessionStore &store, int runs) {
    SessionWriter w(store);
    w.begin();
    const int64_t machine = w.addSource("/metrics/sar.csv", "sysstat", 1);
    const int64_t cpu = w.addMetricSeries(machine, "", "cpu_util", std::nullopt, "%", 1'000'000'000);
    for (int i = 0; i < 5; ++i) w.addMetricSample(cpu, i * 1'000'000'000LL, 30);
    for (int k = 0; k < runs; ++k) {
        const std::string name = "w" + std::to_string(k);
        const int64_t source = w.addSource("/logdir/" + name + ".json", "chrome_json", 1);
        RunInfo info;
        info.name = name;
        const int64_t run = w.addRun(source, info);
        const int64_t host = w.addTrack(run, {TrackKind::HostThread, std::nullopt, "python", "1", "1", 0});
        const int64_t gpu = w.addTrack(run, {TrackKind::GpuStream, 0, "stream 7", "0", "7", 0});
        const int64_t op = w.intern("op_of_" + name), launch = w.intern("cudaLaunchKernel"), gemm = w.intern("gemm");
        const int64_t cpuOp = w.intern("cpu_op"), runtime = w.intern("cuda_runtime"), kernel = w.intern("kernel");
        for (int s = 0; s < 2; ++s) {
            const int64_t t = s * 10 * kMs;
            w.addStep(run, s + 1, t, 10 * kMs);
            w.addSlice({host, t, 4 * kMs, 0, std::nullopt, op, cpuOp, std::nullopt, {}});
            w.addSlice({host, t + 4 * kMs, kMs / 10, 0, std::nullopt, launch, runtime, int64_t(s + 1), {}});
            w.addSlice({gpu, t + 5 * kMs, 5 * kMs, 0, std::nullopt, gemm, kernel, int64_t(s + 1), {}});
        }
        if (k % 2 == 0) {
            const int64_t util = w.addMetricSeries(source, name, "gpu_util", 0, "%", 1'000'000'000);
            for (int i = 0; i < 12; ++i) w.addMetricSample(util, i * 1'000'000'000LL, 20);
        }
        w.finishSource(source, 6, 0, SourceStatus::Ok);
    }
    w.commit();
}

// SQLite VM steps of every statement run while `work` runs.
template <typename F>
int64_t vmSteps(const SessionStore &store, F &&work) {
    int64_t steps = 0;
    sqlite3_trace_v2(store.db(), SQLITE_TRACE_PROFILE, [](unsigned, void *ctx, void *stmt, void *) {
        *static_cast<int64_t *>(ctx) += sqlite3_stmt_status(static_cast<sqlite3_stmt *>(stmt), SQLITE_STMTSTATUS_VM_STEP, 1);
        return 0;
    }, &steps);
    work();
    sqlite3_trace_v2(store.db(), 0, nullptr, nullptr);
    return steps;
}

bool hasRule(const RunAnalysis &a, const std::string &rule) {
    for (const Finding &f : a.findings)
        if (f.rule == rule) return true;
    return false;
}
} // namespace

class TestReportManyRuns : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    struct Measured {
        Report report;
        int64_t vmSteps = 0;
    };
    Measured build(int runs) {
        SessionStore store(m_dir.filePath(QString("runs%1.stepscope").arg(runs)).toStdString());
        writeRuns(store, runs);
        Measured m;
        m.vmSteps = vmSteps(store, [&] { m.report = ReportBuilder(store).build(); });
        return m;
    }

private slots:
    void everyRunIsAnalysedWithItsOwnData() {
        const Measured m = build(5000);
        QCOMPARE(m.report.runs.size(), size_t(5000));
        for (size_t k = 0; k < m.report.runs.size(); ++k) {
            const RunReport &r = m.report.runs[k];
            QCOMPARE(r.run.name, "w" + std::to_string(k));
            QCOMPARE(r.events, int64_t(6));
            QCOMPARE(r.tracks, int64_t(2));
            QCOMPARE(r.steps.size(), size_t(2));
            QCOMPARE(r.analysis.gpuBusyPct, 50.0);  // 5 ms of kernel per 10 ms step
            // The run's own op name, found among 5,000 runs' strings.
            bool ownOp = false;
            for (const OpStat &o : r.analysis.ops) ownOp = ownOp || o.name == "op_of_" + r.run.name;
            QVERIFY2(ownOp, r.run.name.c_str());
            // Only the runs with their own GPU series get the metric finding.
            QCOMPARE(hasRule(r.analysis, "sm_low_gpu_utilization"), k % 2 == 0);
        }
    }

    void workGrowsLinearlyWithRuns() {
        const Measured small = build(1000), large = build(4000);
        const double perRunSmall = double(small.vmSteps) / 1000, perRunLarge = double(large.vmSteps) / 4000;
        // Linear: the same work per run at both sizes. A per-run scan of all runs, strings or metric
        // series makes the 4x session cost about 4x more per run.
        qInfo("SQLite VM steps per run: %.0f at 1,000 runs, %.0f at 4,000 runs", perRunSmall, perRunLarge);
        QVERIFY2(perRunLarge < 1.25 * perRunSmall,
                 qPrintable(QString("VM steps per run: %1 at 1,000 runs, %2 at 4,000").arg(perRunSmall).arg(perRunLarge)));
    }
};

QTEST_GUILESS_MAIN(TestReportManyRuns)
#include "tst_report_many_runs.moc"

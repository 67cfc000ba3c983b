// Specification of the job analysis (models/analysis/engine/job_analysis.h) on synthetic data-parallel jobs
// (stepscope-synth --ranks): the straggler is named with the cause that makes it late on its own rank
// and what it costs the others; a balanced job has none; waiting ranks' findings name the straggler;
// ranks known only by file name, and ranks that number their steps differently, still form a job.

#include "tests/analysis/import_helper.h"
#include "tests/cli/cli_test_support.h"
#include "tests/cli/compare_test_support.h"
#include "tests/jobs/job_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

#include <fstream>

using namespace stepscope;
using namespace stepscope::test;
using synth::LateCause;

Q_DECLARE_METATYPE(synth::LateCause)

namespace {

const JobRankRow *rowOf(const JobAnalysis &job, int64_t rank) {
    for (const JobRankRow &r : job.ranksTable)
        if (r.rank == rank) return &r;
    return nullptr;
}

} // namespace

class TestJobAnalysis : public QObject {
    Q_OBJECT
private slots:
    void stragglerNamed_data() {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("straggler");
        QTest::addColumn<LateCause>("cause");
        QTest::addColumn<int>("lateMs");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<QString>("category");
        QTest::newRow("4 ranks, rank 2's input 30 ms") << 4 << 2 << LateCause::Input << 30 << 8 << 60 << "input";
        QTest::newRow("6 ranks, rank 5's host work 20 ms") << 6 << 5 << LateCause::HostCompute << 20 << 8 << 60 << "host_compute";
        QTest::newRow("3 ranks, rank 0's checkpoint 40 ms, bigger steps")
            << 3 << 0 << LateCause::Checkpoint << 40 << 6 << 400 << "checkpoint";
    }
    void stragglerNamed() {
        QFETCH(int, ranks);
        QFETCH(int, straggler);
        QFETCH(LateCause, cause);
        QFETCH(int, lateMs);
        QFETCH(int, steps);
        QFETCH(int, kernels);
        QFETCH(QString, category);
        SyntheticJob gen;
        writeJob(gen, jobOptions(ranks, straggler, cause, lateMs, steps, kernels));
        ImportedSession s({gen.path()});
        const Report report = s.report();
        QVERIFY(report.job);
        const JobAnalysis &job = *report.job;
        QCOMPARE(job.ranks, ranks);
        QCOMPARE(job.ranksTable.size(), size_t(ranks));
        QCOMPARE(job.alignedSteps.size(), size_t(steps));
        QVERIFY(!job.alignedByOrder);
        QCOMPARE(job.stragglers.size(), size_t(1));
        const JobStraggler &st = job.stragglers.front();
        QCOMPARE(st.rank, int64_t(straggler));
        QCOMPARE(QString::fromStdString(st.cause), category);
        // What it costs the job: the others spin in their all-reduce for about as long as it is late.
        QVERIFY2(st.lateMsPerStep > 0.8 * lateMs && st.lateMsPerStep < 1.2 * lateMs, qPrintable(QString::number(st.lateMsPerStep)));
        QVERIFY2(st.causeExcessMsPerStep > 0.8 * lateMs, qPrintable(QString::number(st.causeExcessMsPerStep)));
        QCOMPARE(job.bottleneck, st.cause);
        QCOMPARE(job.bottleneckRank, std::optional<int64_t>(straggler));
        // The straggler does not wait; every other rank waits about its lateness in its collective.
        QVERIFY(rowOf(job, straggler)->collectiveWaitMs < 0.2 * lateMs);
        const std::string who = "rank " + std::to_string(straggler) + "'s " + category.toStdString();
        for (const JobRankRow &row : job.ranksTable) {
            const RunReport &run = report.runs[row.runIndex];
            QCOMPARE(run.run.rank, std::optional<int64_t>(row.rank));
            QVERIFY(!run.analysis.findings.empty());
            const Finding &f = run.analysis.findings.front();
            if (row.rank == straggler) {
                QCOMPARE(f.rule, std::string("job_straggler"));
                continue;
            }
            QVERIFY2(row.collectiveWaitMs > 0.8 * lateMs, qPrintable(QString::number(row.collectiveWaitMs)));
            QCOMPARE(f.rule, std::string("job_waits_for_straggler"));
            QVERIFY2(f.title.find(who) != std::string::npos, f.title.c_str());
            // What fixing the straggler is worth to this rank: its wait, off every step.
            QVERIFY(f.projection);
            QCOMPARE(f.projection->category, std::string("straggler"));
            QVERIFY2(std::abs(f.projection->currentStepTimeMs - f.projection->stepTimeMs - row.collectiveWaitMs) < 0.01,
                     qPrintable(QString::number(f.projection->stepTimeMs)));
        }
        // Truth: the same job (same seed) without the straggler runs at the projected step time.
        SyntheticJob balanced;
        writeJob(balanced, jobOptions(ranks, -1, cause, 0, steps, kernels));
        const Report fixed = ImportedSession({balanced.path()}).report();
        const JobRankRow *waiting = rowOf(job, straggler == 0 ? 1 : 0);
        const Finding &f = report.runs[waiting->runIndex].analysis.findings.front();
        const double actual = fixed.job->ranksTable[size_t(waiting->rank)].stepTimeMs;
        QVERIFY2(std::abs(f.projection->stepTimeMs - actual) < 0.1 * actual,
                 qPrintable(QString("projected %1 ms, without the straggler %2 ms").arg(f.projection->stepTimeMs).arg(actual)));
    }

    void balancedJobHasNoStraggler() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(4, -1, LateCause::Input, 0, 8, 60));
        ImportedSession s({gen.path()});
        const Report report = s.report();
        QVERIFY(report.job);
        QCOMPARE(report.job->ranks, 4);
        QVERIFY(report.job->stragglers.empty());
        QVERIFY(!report.job->bottleneckRank);
        QCOMPARE(report.job->bottleneck, report.runs.front().analysis.bottleneck);  // the ranks' common verdict
        for (const RunReport &r : report.runs)
            for (const Finding &f : r.analysis.findings) QVERIFY(f.rule.rfind("job_", 0) != 0);
    }

    void jsonAndTextCarryTheJob() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(3, 1, LateCause::Input, 25, 6, 60));
        const auto r = runCli({"report", gen.path().string(), "--format", "json", "--jobs", "2"});
        QCOMPARE(r.code, 0);
        const QJsonObject job = parseJson(r.out)["job"].toObject();
        QCOMPARE(job["ranks"].toInt(), 3);
        QCOMPARE(job["bottleneck"].toString(), QStringLiteral("input"));
        QCOMPARE(job["bottleneck_rank"].toInt(), 1);
        QVERIFY(job["step_time_ms"].toObject()["median"].toDouble() > 0);
        const QJsonObject st = job["stragglers"].toArray().first().toObject();
        QCOMPARE(st["rank"].toInt(), 1);
        QCOMPARE(st["run"].toString(), QStringLiteral("rank 1"));
        QCOMPARE(st["cause"].toString(), QStringLiteral("input"));
        QVERIFY(st["late_ms_per_step"].toDouble() > 20);
        const QJsonArray table = job["ranks_table"].toArray();
        QCOMPARE(table.size(), 3);
        for (const char *key : {"rank", "run", "step_time_ms", "bottleneck", "collective_wait_ms"})
            QVERIFY2(table.first().toObject().contains(key), key);
        const auto text = runCli({"report", gen.path().string()});
        QVERIFY2(text.out.find("Job: 3 ranks") != std::string::npos, text.out.c_str());
        QVERIFY(text.out.find("straggler: rank 1") != std::string::npos);
        const auto markdown = runCli({"report", gen.path().string(), "--format", "markdown"});
        QVERIFY(markdown.out.find("## Job (3 ranks)") != std::string::npos);
    }

    void ranksFromFileNames() {
        SyntheticJob gen;
        auto o = jobOptions(3, 2, LateCause::Input, 30, 6, 60);
        o.distributedInfo = false;
        writeJob(gen, o);
        ImportedSession s({gen.path()});
        const Report report = s.report();
        QVERIFY(report.job);
        QCOMPARE(report.job->ranks, 3);
        QVERIFY2(report.job->ranksTable[2].run.rfind("rank-2", 0) == 0, report.job->ranksTable[2].run.c_str());
        QCOMPARE(report.job->ranksTable[2].rank, int64_t(2));
        QCOMPARE(report.job->bottleneckRank, std::optional<int64_t>(2));
    }

    void differentStepNumbersAlignByOrder() {
        SyntheticJob a, b;
        auto o = jobOptions(2, -1, LateCause::Input, 0, 6, 60);
        writeJob(a, o);
        o.rank.firstStep = 101;
        writeJob(b, o);
        ImportedSession s({a.path() / "rank-0.pt.trace.json.gz", b.path() / "rank-1.pt.trace.json.gz"});
        const Report report = s.report();
        QVERIFY(report.job);
        QVERIFY(report.job->alignedByOrder);
        QCOMPARE(report.job->alignedSteps.size(), size_t(6));
        QVERIFY(!report.job->notes.empty());
        QVERIFY2(report.job->notes.front().find("aligned by order") != std::string::npos, report.job->notes.front().c_str());
    }

    void oneRankUnreadable() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(4, -1, LateCause::Input, 0, 6, 60));
        {  // rank 2's trace is cut off in its first event: nothing of it can be read
            std::ofstream broken(gen.path() / "rank-2.pt.trace.json.gz", std::ios::trunc);
            broken << "{\"distributedInfo\": {\"rank\": 2, \"world_size\": 4}, \"traceEvents\": [{\"ph\": \"X\", \"name\": ";
        }
        const auto r = runCli({"report", gen.path().string(), "--format", "json", "--jobs", "2"});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.find("rank-2.pt.trace.json.gz") != std::string::npos, r.err.c_str());
        const QJsonObject job = parseJson(r.out)["job"].toObject();
        QCOMPARE(job["ranks"].toInt(), 3);
        bool named = false;
        for (const QJsonValue &n : job["notes"].toArray())
            named = named || n.toString().startsWith(QStringLiteral("rank 2 is missing"));
        QVERIFY2(named, qPrintable(QJsonDocument(job).toJson()));
    }

    // A rank numbered near the top of what a file name can say beside rank 0 (issue #36: rank
    // 2147483647 made the report allocate a note for every number below it, 6 GB, then "out of
    // memory"): the missing ranks are counted, a few named.
    void hugeRankNumberCountsTheMissing() {
        SyntheticJob gen;
        auto o = jobOptions(2, -1, LateCause::Input, 0, 4, 60);
        o.distributedInfo = false;  // ranks from the file names
        writeJob(gen, o);
        std::filesystem::rename(gen.path() / "rank-1.pt.trace.json.gz", gen.path() / "rank-999999999.pt.trace.json.gz");
        ImportedSession s({gen.path()});
        const Report report = s.report();
        QVERIFY(report.job);
        QCOMPARE(report.job->ranks, 2);
        QCOMPARE(report.job->ranksTable[1].rank, int64_t(999999999));
        std::vector<std::string> missing;
        for (const std::string &n : report.job->notes)
            if (n.find("missing") != std::string::npos) missing.push_back(n);
        QCOMPARE(missing.size(), size_t(9));
        QCOMPARE(QString::fromStdString(missing[0]), QStringLiteral("rank 1 is missing: no trace of it was imported"));
        QCOMPARE(QString::fromStdString(missing[7]), QStringLiteral("rank 8 is missing: no trace of it was imported"));
        QCOMPARE(QString::fromStdString(missing[8]),
                 QStringLiteral("999999990 more ranks are missing, up to rank 999999998 (999999998 in all): no trace of them was imported"));
    }

    void singleRunIsNoJob() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(2, -1, LateCause::Input, 0, 4, 60));
        ImportedSession s({gen.path() / "rank-0.pt.trace.json.gz"});
        QVERIFY(!s.report().job);
    }
};

QTEST_GUILESS_MAIN(TestJobAnalysis)
#include "tst_job_analysis.moc"

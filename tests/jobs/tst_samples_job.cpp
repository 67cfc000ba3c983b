// HTA's trace_filter sample (../shared/samples/hta/trace_filter: two ranks of a 128-rank job,
// Kineto distributedInfo) imports as a job: two runs with their ranks, a job block over both.

#include "tests/cli/cli_test_support.h"
#include "tests/cli/compare_test_support.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

class TestSamplesJob : public QObject {
    Q_OBJECT
private slots:
    void htaTraceFilterIsAJob() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto dir = samples / "hta" / "trace_filter";
        const auto r = runCli({"report", dir.string(), "--format", "json", "--jobs", "2"});
        QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
        const QJsonObject report = parseJson(r.out);
        const QJsonObject job = report["job"].toObject();
        QCOMPARE(job["ranks"].toInt(), 2);
        const QJsonArray table = job["ranks_table"].toArray();
        QCOMPARE(table.size(), 2);
        QCOMPARE(table[0].toObject()["rank"].toInt(), 0);
        QCOMPARE(table[1].toObject()["rank"].toInt(), 1);
        QCOMPARE(table[1].toObject()["run"].toString(), QStringLiteral("rank 1"));
        QVERIFY(table[0].toObject()["step_time_ms"].toDouble() > 0);
        QVERIFY(!job["bottleneck"].toString().isEmpty());
        QCOMPARE(job["aligned_by"].toString(), QStringLiteral("step_number"));
        QVERIFY(job["step_time_ms"].toObject()["mean"].toDouble() > 0);
        for (const QJsonValue &run : report["runs"].toArray()) QVERIFY(run.toObject().contains("rank"));
    }
};

QTEST_GUILESS_MAIN(TestSamplesJob)
#include "tst_samples_job.moc"

// docs/jobs.md's "beyond one machine" recipe: each node imports its own ranks into its own session
// file, and the session files are queried together as plain SQLite (ATTACH), with the query the
// docs/jobs.md shows. Checks that every rank's every step comes back, slowest rank first within a step.

#include "tests/cli/cli_test_support.h"
#include "tests/jobs/job_test_support.h"

#include <QtTest>

#include <sqlite3.h>

#include <map>
#include <set>

using namespace stepscope;
using namespace stepscope::test;

class TestJobSessionsQuery : public QObject {
    Q_OBJECT
private slots:
    void twoNodeSessionsQueriedTogether() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(4, 2, synth::LateCause::Input, 20, 5, 60));
        QTemporaryDir out;
        const std::string node0 = out.filePath("node0.stepscope").toStdString(), node1 = out.filePath("node1.stepscope").toStdString();
        const auto file = [&](int r) { return (gen.path() / ("rank-" + std::to_string(r) + ".pt.trace.json.gz")).string(); };
        QCOMPARE(runCli({"import", file(0), file(1), "-o", node0}).code, 0);
        QCOMPARE(runCli({"import", file(2), file(3), "-o", node1}).code, 0);

        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(node0.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        const std::string attach = "ATTACH '" + node1 + "' AS n1";
        QCOMPARE(sqlite3_exec(db, attach.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
        const char *sql =
            "SELECT r.rank, s.step, s.dur_ns / 1e6 AS step_ms FROM main.v_step s JOIN main.run r ON r.name = s.run "
            "UNION ALL "
            "SELECT r.rank, s.step, s.dur_ns / 1e6 AS step_ms FROM n1.v_step s JOIN n1.run r ON r.name = s.run "
            "ORDER BY step, step_ms DESC";
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK);
        std::map<int64_t, std::vector<std::pair<int64_t, double>>> bySteps;  // step → (rank, ms) in row order
        while (sqlite3_step(st) == SQLITE_ROW)
            bySteps[sqlite3_column_int64(st, 1)].emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_double(st, 2));
        sqlite3_finalize(st);
        sqlite3_close(db);

        QCOMPARE(bySteps.size(), size_t(5));
        for (const auto &[step, rows] : bySteps) {
            std::set<int64_t> ranks;
            for (size_t i = 0; i < rows.size(); ++i) {
                ranks.insert(rows[i].first);
                QVERIFY(rows[i].second > 0);
                if (i) QVERIFY(rows[i - 1].second >= rows[i].second);
            }
            QCOMPARE(ranks, (std::set<int64_t>{0, 1, 2, 3}));
        }
    }
};

QTEST_GUILESS_MAIN(TestJobSessionsQuery)
#include "tst_job_sessions_query.moc"

// Specification of the parallel import of a job (importers/logdir/file_imports.h, --jobs N): the
// session is the same row for row whatever the number of workers (ids included), cancel stops every
// worker and leaves the session as it was, progress covers the whole job and only grows, and the
// import of a folder of rank traces keeps each rank its own run with its rank.

#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/concurrency/cancel_token.h"
#include "models/store/session_reader.h"
#include "tests/cli/cli_test_support.h"
#include "tests/jobs/job_test_support.h"

#include <QtTest>

#include <atomic>
#include <mutex>

using namespace stepscope;
using namespace stepscope::test;

namespace {

// Everything a user or script reads, and the tables behind it, in a fixed order.
std::string dump(const std::string &session) {
    std::string all;
    for (const char *sql : {"SELECT * FROM v_slice ORDER BY run, track, start_ns, depth, name",
                            "SELECT * FROM v_step ORDER BY run, step", "SELECT * FROM slice ORDER BY id",
                            "SELECT * FROM flow ORDER BY id", "SELECT * FROM track ORDER BY id",
                            "SELECT id, source_id, name, host, framework, device, rank, time_base_ns FROM run ORDER BY id",
                            "SELECT id, text FROM string ORDER BY id", "SELECT * FROM step ORDER BY run_id, step",
                            "SELECT path, format, events, warnings, status FROM source ORDER BY id",
                            "SELECT * FROM counter_sample ORDER BY rowid"}) {
        const auto r = runCli({"query", session, sql, "--format", "csv"});
        if (r.code != 0) return "query failed: " + r.err;
        all += std::string(sql) + "\n" + r.out;
    }
    return all;
}

} // namespace

class TestParallelImport : public QObject {
    Q_OBJECT
private slots:
    void jobsOneAndTwoGiveTheSameSession() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(4, 3, synth::LateCause::HostCompute, 10, 5, 80));
        QTemporaryDir out;
        const std::string one = out.filePath("one.stepscope").toStdString(), two = out.filePath("two.stepscope").toStdString();
        QCOMPARE(runCli({"import", gen.path().string(), "-o", one, "--jobs", "1"}).code, 0);
        QCOMPARE(runCli({"import", gen.path().string(), "-o", two, "--jobs", "2"}).code, 0);
        const std::string a = dump(one), b = dump(two);
        QVERIFY(a.size() > 100'000);  // the queries returned the job's rows
        QVERIFY(a == b);
        // Each rank is its own run, with its rank.
        const auto runs = runCli({"query", two, "SELECT name, rank FROM run ORDER BY rank", "--format", "csv"});
        QCOMPARE(runs.out, std::string("name,rank\nrank 0,0\nrank 1,1\nrank 2,2\nrank 3,3\n"));
    }

    void progressCoversTheJobAndCancelStopsIt() {
        SyntheticJob gen;
        writeJob(gen, jobOptions(4, -1, synth::LateCause::Input, 0, 6, 120));
        QTemporaryDir out;
        SessionStore store(out.filePath("s.stepscope").toStdString());
        ImporterRegistry registry;
        std::mutex m;
        int64_t last = -1, total = 0;
        bool monotonic = true;
        ImportOptions options;
        options.jobs = 2;
        const ImportSummary done = SessionImporter(store, registry).run({gen.path()}, {},
            [&](int64_t d, int64_t t, const std::string &) {
                std::lock_guard lock(m);  // the importer promises one call at a time; checked here too
                monotonic = monotonic && d >= last;
                last = d;
                total = t;
            }, options);
        QCOMPARE(done.sources.size(), size_t(4));
        QVERIFY(monotonic);
        QCOMPARE(last, total);
        int64_t bytes = 0;
        for (const auto &f : gen.stats.files) bytes += int64_t(std::filesystem::file_size(f));
        QCOMPARE(total, bytes);

        // Cancel part-way: the second session stays empty, whichever worker saw the flag.
        SessionStore second(out.filePath("t.stepscope").toStdString());
        const CancelToken cancel;
        const ImportSummary cancelled = SessionImporter(second, registry).run({gen.path()}, cancel,
            [&](int64_t d, int64_t t, const std::string &) {
                if (d * 3 > t) cancel.cancel();
            }, options);
        QVERIFY(cancelled.cancelled);
        QVERIFY(cancelled.sources.empty());
        QVERIFY(SessionReader(second).runs().empty());
        QVERIFY(SessionReader(second).sources().empty());
    }

    void badJobsValueIsAUsageError() {
        for (const char *bad : {"0", "-1", "two", "1025"}) {
            const auto r = runCli({"import", "x", "-o", "y.stepscope", "--jobs", bad});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.find("--jobs") != std::string::npos, r.err.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestParallelImport)
#include "tst_parallel_import.moc"

// The session store: schema, migrations, writer/reader round trip, transactions, re-import rules.

#include "models/store/session_reader.h"
#include "models/store/session_writer.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;

namespace {
int64_t scalar(SessionStore &store, const char *sql) {
    SqliteStatement st(store.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}

// One source with a run, a host and a GPU track, three slices and two steps.
int64_t writeSmallTrace(SessionWriter &w, const std::string &path, int64_t base) {
    const int64_t src = w.addSource(path, "test", 123);
    RunInfo run;
    run.name = "host-a";
    run.framework = "pytorch";
    run.timeBaseNs = base;
    run.hasEpoch = true;
    const int64_t r = w.addRun(src, run);
    const int64_t host = w.addTrack(r, {TrackKind::HostThread, std::nullopt, "thread 1 (python)", "100", "1", 0});
    const int64_t gpu = w.addTrack(r, {TrackKind::GpuStream, 0, "stream 7", "0", "7", 1});
    const int64_t step = w.addSlice({host, 0, 100, 0, std::nullopt, w.intern("ProfilerStep#1"), w.intern("user_annotation"),
                                     std::nullopt, {}});
    w.addSlice({host, 10, 20, 1, step, w.intern("cudaLaunchKernel"), w.intern("cuda_runtime"), 42, R"({"correlation":42})"});
    w.addSlice({gpu, 35, 50, 0, std::nullopt, w.intern("sgemm"), w.intern("kernel"), 42, {}});
    w.addStep(r, 1, 0, 100);
    w.addStep(r, 2, 100, 80);
    w.finishSource(src, 3, 0, SourceStatus::Ok);
    return src;
}
} // namespace

class TestSessionStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path file(const char *name) { return std::filesystem::path(m_dir.path().toStdString()) / name; }

private slots:
    void createsLatestSchemaWithWal() {
        SessionStore store(file("new.stepscope"));
        QCOMPARE(store.schemaVersion(), SessionStore::latestSchemaVersion());
        SqliteStatement st(store.db(), "PRAGMA journal_mode");
        QVERIFY(st.step());
        QCOMPARE(QString::fromStdString(st.columnText(0)), QStringLiteral("wal"));
    }

    void roundTripThroughStableViews() {
        SessionStore store(file("rt.stepscope"));
        SessionWriter w(store);
        w.begin();
        const int64_t base = 1712195495406752800;
        writeSmallTrace(w, "/data/a.json", base);
        w.commit();

        SqliteStatement st(store.db(), "SELECT run, track_kind, device, track, name, category, start_ns, dur_ns, depth "
                                       "FROM v_slice ORDER BY start_ns");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(4), std::string("ProfilerStep#1"));
        QCOMPARE(st.columnText(1), std::string("host_thread"));
        QVERIFY(st.columnIsNull(2));  // no device on host threads
        QCOMPARE(st.columnInt(6), base);
        QVERIFY(st.step());
        QCOMPARE(st.columnText(4), std::string("cudaLaunchKernel"));
        QCOMPARE(st.columnInt(8), int64_t(1));
        QVERIFY(st.step());
        QCOMPARE(st.columnText(1), std::string("gpu_stream"));
        QCOMPARE(st.columnInt(2), int64_t(0));
        QCOMPARE(st.columnInt(6), base + 35);
        QCOMPARE(st.columnInt(7), int64_t(50));
        QVERIFY(!st.step());

        SessionReader reader(store);
        const auto runs = reader.runs();
        QCOMPARE(runs.size(), size_t(1));
        const auto steps = reader.steps(runs[0].id);
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[1].startNs, base + 100);
        QCOMPARE(reader.sliceCount(), int64_t(3));
        QCOMPARE(reader.runTimeRange(runs[0].id).end, base + 100);
        // Interned: one row per distinct string, even when written twice.
        QCOMPARE(scalar(store, "SELECT count(*) FROM string WHERE text = 'cudaLaunchKernel'"), int64_t(1));
    }

    void rollbackLeavesSessionAsItWas() {
        SessionStore store(file("rb.stepscope"));
        {
            SessionWriter w(store);
            w.begin();
            writeSmallTrace(w, "/data/a.json", 0);
            w.commit();
        }
        {
            SessionWriter w(store);
            w.begin();
            writeSmallTrace(w, "/data/b.json", 0);
            w.rollback();
        }
        {
            SessionWriter w(store);  // destroyed without commit: same as cancel
            w.begin();
            writeSmallTrace(w, "/data/a.json", 5);  // would replace a.json
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM source"), int64_t(1));
        QCOMPARE(scalar(store, "SELECT count(*) FROM slice"), int64_t(3));
        QCOMPARE(scalar(store, "SELECT min(start_ns) FROM v_slice"), int64_t(0));
    }

    void reimportReplacesSourceButKeepsUserData() {
        SessionStore store(file("re.stepscope"));
        {
            SessionWriter w(store);
            w.begin();
            writeSmallTrace(w, "/data/a.json", 1000);
            w.commit();
        }
        sqliteExec(store.db(), "INSERT INTO annotation(start_ns, end_ns, text) VALUES (1000, 1100, 'slow step')");
        store.setClockOffsetNs("/data/a.json", 500);
        store.setSetting("batch_size", "64");
        QCOMPARE(scalar(store, "SELECT min(start_ns) FROM v_slice"), int64_t(1500));
        {
            SessionWriter w(store);
            w.begin();
            writeSmallTrace(w, "/data/a.json", 2000);
            w.commit();
        }
        QCOMPARE(scalar(store, "SELECT count(*) FROM source"), int64_t(1));
        QCOMPARE(scalar(store, "SELECT count(*) FROM slice"), int64_t(3));  // not 6
        QCOMPARE(scalar(store, "SELECT count(*) FROM track"), int64_t(2));
        QCOMPARE(scalar(store, "SELECT count(*) FROM v_annotation WHERE text = 'slow step'"), int64_t(1));
        QCOMPARE(scalar(store, "SELECT min(start_ns) FROM v_slice"), int64_t(2500));  // offset survived
        QCOMPARE(store.setting("batch_size"), std::string("64"));
    }

    void metricsAreAbsoluteAndMissingIsNoRow() {
        SessionStore store(file("m.stepscope"));
        SessionWriter w(store);
        w.begin();
        const int64_t src = w.addSource("/data/smi.csv", "nvidia_smi_csv", 10);
        const int64_t s = w.addMetricSeries(src, "", "gpu_util", 1, "%", 100000000);
        w.addMetricSample(s, 1700000000000000000, 87);
        w.addMetricSample(s, 1700000000200000000, 12.5);  // the 100 ms sample was N/A: no row
        w.commit();
        SqliteStatement st(store.db(), "SELECT series, device, unit, t_ns, value FROM v_metric ORDER BY t_ns");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), std::string("gpu_util"));
        QCOMPARE(st.columnInt(1), int64_t(1));
        QCOMPARE(st.columnInt(3), int64_t(1700000000000000000));
        QVERIFY(st.step());
        QCOMPARE(st.columnDouble(4), 12.5);
        QVERIFY(!st.step());
    }

    void olderFileIsUpgradedOnOpen() {
        const auto path = file("v1.stepscope");
        {
            // A session written by a build that only knew migration 1.
            const std::vector<Migration> v1 = {SessionStore::builtinMigrations().front()};
            SessionStore old(path, SessionStore::Mode::ReadWrite, v1);
            QCOMPARE(old.schemaVersion(), 1);
            SessionWriter w(old);
            w.begin();
            writeSmallTrace(w, "/data/a.json", 7);
            w.commit();
            SqliteStatement st(old.db(), "SELECT count(*) FROM sqlite_master WHERE name = 'annotation'");
            QVERIFY(st.step());
            QCOMPARE(st.columnInt(0), int64_t(0));
        }
        SessionStore store(path);
        QCOMPARE(store.schemaVersion(), SessionStore::latestSchemaVersion());
        QCOMPARE(scalar(store, "SELECT count(*) FROM v_slice"), int64_t(3));  // data kept
        QCOMPARE(scalar(store, "SELECT count(*) FROM v_annotation"), int64_t(0));  // new view exists
        QCOMPARE(scalar(store, "SELECT min(start_ns) FROM v_slice"), int64_t(7));
    }

    void readOnlyOpenRefusesOldSchemaWithReason() {
        const auto path = file("v1ro.stepscope");
        { SessionStore old(path, SessionStore::Mode::ReadWrite, {SessionStore::builtinMigrations().front()}); }
        try {
            SessionStore ro(path, SessionStore::Mode::ReadOnly);
            QFAIL("expected a refusal");
        } catch (const StoreError &e) {
            QVERIFY2(QString(e.what()).contains("upgrade"), e.what());
        }
    }

    void newerFileIsRefusedWithClearMessage() {
        const auto path = file("future.stepscope");
        {
            SessionStore s(path);
            sqliteExec(s.db(), "PRAGMA user_version = 99");
        }
        try {
            SessionStore s(path);
            QFAIL("expected a refusal");
        } catch (const StoreError &e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("newer Stepscope") && msg.contains("future.stepscope"), e.what());
        }
    }

    void notASessionFileIsRefused() {
        const auto path = file("junk.stepscope");
        FILE *f = std::fopen(path.c_str(), "wb");
        std::fputs("this is not sqlite at all, just some text that is long enough to look like a header", f);
        std::fclose(f);
        QVERIFY_THROWS_EXCEPTION(StoreError, SessionStore s(path));
    }

    void failedMigrationKeepsPreviousVersion() {
        const auto path = file("badmig.stepscope");
        std::vector<Migration> migrations = {SessionStore::builtinMigrations().front(), {2, "CREATE TABLE x(a); SELECT * FROM no_such_table;"}};
        QVERIFY_THROWS_EXCEPTION(StoreError, SessionStore s(path, SessionStore::Mode::ReadWrite, migrations));
        SessionStore s(path, SessionStore::Mode::ReadWrite, {SessionStore::builtinMigrations().front()});
        QCOMPARE(s.schemaVersion(), 1);
        QCOMPARE(scalar(s, "SELECT count(*) FROM sqlite_master WHERE name = 'x'"), int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestSessionStore)
#include "tst_session_store.moc"

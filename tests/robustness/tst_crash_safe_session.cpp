// Crash-safe sessions (DESIGN.md "Session store"): an import SIGKILLed halfway leaves the session as
// it was (previous source, annotation, settings, schema, integrity_check ok); two processes on one
// session -- one importing, the other reading and writing an annotation -- see only committed
// states, handle "busy" with a clear error or a wait, and leave an intact file. The importer runs
// in a child process: this program re-run with --child-import.

#include "app/synth/synthetic_profile_generator.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "tests/test_support.h"

#include <QElapsedTimer>
#include <QtTest>

#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

extern char **environ;

namespace stepscope {
namespace fs = std::filesystem;

namespace {

std::string g_self;

pid_t spawnImport(const fs::path &session, const fs::path &file) {
    std::string a0 = g_self, a1 = "--child-import", a2 = session.string(), a3 = file.string();
    char *argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), nullptr};
    pid_t pid = -1;
    return posix_spawn(&pid, g_self.c_str(), nullptr, nullptr, argv, environ) == 0 ? pid : -1;
}

int64_t scalar(SessionStore &s, const std::string &sql) {
    SqliteStatement st(s.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}
std::string text(SessionStore &s, const std::string &sql) {
    SqliteStatement st(s.db(), sql);
    return st.step() ? st.columnText(0) : std::string("<no row>");
}
int64_t fileSize(const fs::path &p) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);
    return ec ? 0 : int64_t(n);
}

} // namespace

class TstCrashSafeSession : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_small, m_large;
    fs::path path(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

    // A session with one imported source, an annotation, a setting and a clock offset.
    fs::path makeSession(const std::string &name, int64_t &slicesBefore) {
        const fs::path session = path(name);
        SessionStore store(session);
        ImporterRegistry registry;
        const ImportSummary sum = SessionImporter(store, registry).run({m_small});
        if (sum.sources.size() != 1 || sum.sources[0].status != SourceStatus::Ok) qFatal("seed import failed");
        sqliteExec(store.db(), "INSERT INTO annotation(start_ns, end_ns, text) VALUES (1, 2, 'do not lose me')");
        store.setSetting("batch_size", "64");
        store.setClockOffsetNs(m_small.string(), 12345);
        slicesBefore = scalar(store, "SELECT count(*) FROM slice");
        return session;
    }

    void checkIntact(const fs::path &session, int64_t slicesBefore) {
        SessionStore store(session);
        QCOMPARE(text(store, "PRAGMA integrity_check"), std::string("ok"));
        QCOMPARE(store.schemaVersion(), SessionStore::latestSchemaVersion());
        QCOMPARE(text(store, "SELECT text FROM v_annotation"), std::string("do not lose me"));
        QCOMPARE(store.setting("batch_size"), std::string("64"));
        QCOMPARE(store.clockOffsetNs(m_small.string()), int64_t(12345));
        QCOMPARE(scalar(store, "SELECT count(*) FROM source"), int64_t(1));
        QCOMPARE(text(store, "SELECT path FROM source"), fs::absolute(m_small).lexically_normal().string());
        QCOMPARE(scalar(store, "SELECT count(*) FROM slice"), slicesBefore);
    }

private slots:
    void initTestCase() {
        synth::SyntheticProfileOptions small;
        small.steps = 3;
        m_small = path("previous.pt.trace.json.gz");
        synth::writeTrace(small, m_small);
        synth::SyntheticProfileOptions large;
        large.targetEvents = 150000;
        large.gzipLevel = 1;
        m_large = path("large.pt.trace.json.gz");
        synth::writeTrace(large, m_large);
    }

    void sigkillHalfwayLeavesTheSessionAsItWas() {
        int64_t slicesBefore = 0;
        const fs::path session = makeSession("killed.stepscope", slicesBefore);
        const pid_t pid = spawnImport(session, m_large);
        QVERIFY(pid > 0);
        // Kill once the import is writing rows (the WAL grows past 1 MiB), or after 60 s at worst.
        QElapsedTimer t;
        t.start();
        int status = 0;
        bool exited = false;
        while (fileSize(session.string() + "-wal") < (int64_t(1) << 20) && t.elapsed() < 60000) {
            if (waitpid(pid, &status, WNOHANG) == pid) {
                exited = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        QVERIFY2(!exited, "the import finished before it could be killed: make the trace larger");
        const int64_t walAtKill = fileSize(session.string() + "-wal");
        QCOMPARE(kill(pid, SIGKILL), 0);
        QCOMPARE(waitpid(pid, &status, 0), pid);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        qInfo("killed after %lld ms with a %lld KiB WAL", qlonglong(t.elapsed()), qlonglong(walAtKill / 1024));
        checkIntact(session, slicesBefore);
    }

    void twoProcessesOnOneSession() {
        int64_t slicesBefore = 0;
        const fs::path session = makeSession("shared.stepscope", slicesBefore);
        const pid_t pid = spawnImport(session, m_large);
        QVERIFY(pid > 0);
        SessionStore other(session);  // a second app instance on the same file
        int status = 0;
        int reads = 0, busy = 0, written = 0;
        bool done = false;
        QElapsedTimer t;
        t.start();
        while (!done && t.elapsed() < 120000) {
            done = waitpid(pid, &status, WNOHANG) == pid;
            // Readers see only committed states: the old slice count or the complete new one.
            const int64_t slices = scalar(other, "SELECT count(*) FROM slice");
            const int64_t sources = scalar(other, "SELECT count(*) FROM source");
            QVERIFY2(sources == 1 ? slices == slicesBefore : (sources == 2 && slices > slicesBefore),
                     qPrintable(QString("%1 sources, %2 slices").arg(sources).arg(slices)));
            QCOMPARE(text(other, "SELECT text FROM v_annotation ORDER BY id LIMIT 1"), std::string("do not lose me"));
            ++reads;
            // Once the import is writing (its WAL grows) it holds the write lock: a second writer
            // waits up to busy_timeout (5 s), then gets a clear "locked" error; either is fine.
            if (written + busy == 0 && fileSize(session.string() + "-wal") > (int64_t(256) << 10)) {
                try {
                    sqliteExec(other.db(), "INSERT INTO annotation(start_ns, end_ns, text) VALUES (3, 4, 'second instance')");
                    ++written;
                } catch (const StoreError &e) {
                    ++busy;
                    QVERIFY2(std::string(e.what()).find("locked") != std::string::npos ||
                                 std::string(e.what()).find("busy") != std::string::npos, e.what());
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        QVERIFY2(done, "the import did not finish in 120 s");
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        qInfo("%d reads during the import, %d writes, %d busy", reads, written, busy);
        QVERIFY(reads > 3);
        SessionStore after(session);
        QCOMPARE(text(after, "PRAGMA integrity_check"), std::string("ok"));
        QCOMPARE(scalar(after, "SELECT count(*) FROM source"), int64_t(2));
        QVERIFY(scalar(after, "SELECT count(*) FROM slice") > slicesBefore);
        QCOMPARE(scalar(after, "SELECT count(*) FROM annotation"), int64_t(1 + written));
    }
};

} // namespace stepscope

int main(int argc, char **argv) {
    if (argc == 4 && std::string(argv[1]) == "--child-import") {
        stepscope::SessionStore store(argv[2]);
        stepscope::ImporterRegistry registry;
        const auto summary = stepscope::SessionImporter(store, registry).run({argv[3]});
        return summary.anyImported() ? 0 : 1;
    }
    stepscope::g_self = std::filesystem::canonical("/proc/self/exe").string();
    QCoreApplication app(argc, argv);
    stepscope::TstCrashSafeSession t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_crash_safe_session.moc"

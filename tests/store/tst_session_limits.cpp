// Every statement on a session connection is bounded (DESIGN.md "Session files are input too"): one
// that runs past the connection's time limit is stopped with an error that says so, the GUI can
// stop a running statement from another thread (SessionStore::interrupt), the loaders' read-only
// connections carry the same limit, and the limit counts per statement, not per connection.

#include "tests/store/store_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {
const char *kEndless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

QString errorOf(sqlite3 *db, const std::string &sql) {
    try {
        SqliteStatement st(db, sql);
        while (st.step()) {}
    } catch (const StoreError &e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("<ok>");
}

std::atomic<bool> g_started{false};
void markStarted(sqlite3_context *ctx, int, sqlite3_value **) {
    g_started = true;
    sqlite3_result_int(ctx, 1);
}
} // namespace

class TstSessionLimits : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_file;

private slots:
    void initTestCase() {
        m_file = fs::path(m_dir.path().toStdString()) / "s.stepscope";
        writeSession(m_file);
    }

    void endlessStatementIsStoppedWithAReason() {
        SessionStore store(m_file, SessionStore::Mode::ReadOnly);
        store.setStatementTimeLimit(std::chrono::milliseconds(200));
        QCOMPARE(errorOf(store.db(), kEndless), QStringLiteral("statement stopped after 0.2 s (the time limit for one statement)"));
        // The next statement has its own time.
        QCOMPARE(scalar(store.db(), "SELECT count(*) FROM slice"), int64_t(3));
    }

    void interruptStopsARunningStatementFromAnotherThread() {
        SessionStore store(m_file, SessionStore::Mode::ReadOnly);  // default limit (60 s): only interrupt() stops it
        QCOMPARE(sqlite3_create_function(store.db(), "mark_started", 0, SQLITE_UTF8, nullptr, markStarted, nullptr, nullptr),
                 SQLITE_OK);
        g_started = false;
        std::thread stopper([&store] {
            while (!g_started) std::this_thread::yield();
            store.interrupt();
        });
        const QString msg =
            errorOf(store.db(), "WITH RECURSIVE c(x) AS (SELECT mark_started() UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
        stopper.join();
        QCOMPARE(msg, QStringLiteral("interrupted"));
        QCOMPARE(scalar(store.db(), "SELECT count(*) FROM slice"), int64_t(3));
    }

    void loaderConnectionsAreBoundedToo() {
        const auto saved = SessionConnection::defaultStatementTimeLimit();
        SessionConnection::setDefaultStatementTimeLimit(std::chrono::milliseconds(200));
        SessionConnection conn = SessionStore::openReadOnlyConnection(m_file);
        SessionConnection::setDefaultStatementTimeLimit(saved);
        QCOMPARE(conn.statementTimeLimit(), std::chrono::milliseconds(200));
        QVERIFY(errorOf(conn.db(), kEndless).startsWith("statement stopped after 0.2 s"));
    }

    // Many short statements that together take longer than the limit are each within it.
    void limitCountsPerStatement() {
        SessionStore store(m_file);
        store.setStatementTimeLimit(std::chrono::milliseconds(100));
        const char *shortWork = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT count(*) FROM c";
        for (int i = 0; i < 30; ++i) {
            QCOMPARE(scalar(store.db(), shortWork), int64_t(20000));
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
};

QTEST_GUILESS_MAIN(TstSessionLimits)
#include "tst_session_limits.moc"

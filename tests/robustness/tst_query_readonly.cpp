// The `query` command is read-only because SQLite enforces it (read-only connection, query_only,
// sqlite3_stmt_readonly), not because the SQL text looks harmless: statements that would write in
// disguise (CTE + DELETE, writable_schema, ATTACH, VACUUM INTO, load_extension, several statements,
// temp tables, journal_mode) leave the session file byte-for-byte unchanged and create no file.

#include "app/cli/command_line.h"
#include "models/store/session_store.h"
#include "tests/test_support.h"

#include <QCryptographicHash>
#include <QFile>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace stepscope;

namespace {
struct Result {
    int code;
    std::string out, err;
};
Result runCli(const std::vector<std::string> &args) {
    std::ostringstream out, err;
    const int code = cli::run(args, {out, err, false});
    return {code, out.str(), err.str()};
}
QByteArray digest(const std::string &file) {
    QFile f(QString::fromStdString(file));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}
} // namespace

namespace stepscope {

class TstQueryReadonly : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_session;
    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

    int64_t annotations() {
        SessionStore s(m_session, SessionStore::Mode::ReadOnly);
        SqliteStatement st(s.db(), "SELECT count(*) FROM annotation");
        return st.step() ? st.columnInt(0) : -1;
    }

private slots:
    void initTestCase() {
        std::ofstream(path("t.json")) << R"([{"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])";
        m_session = path("s.stepscope");
        QCOMPARE(runCli({"import", path("t.json"), "-o", m_session}).code, 0);
        SessionStore s(m_session);
        sqliteExec(s.db(), "INSERT INTO annotation(start_ns, end_ns, text) VALUES (0, 10, 'keep me');"
                           "PRAGMA wal_checkpoint(TRUNCATE);");
    }

    void plainSelectWorks() {
        const Result r = runCli({"query", m_session, "SELECT text FROM v_annotation"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, std::string("text\nkeep me\n"));
    }

    void disguisedWritesChangeNothing_data() {
        QTest::addColumn<QString>("sql");
        const std::string other = path("stolen.db");
        QTest::newRow("cte delete") << "WITH x AS (SELECT 1) DELETE FROM annotation";
        QTest::newRow("cte update") << "WITH x(v) AS (SELECT 'gone') UPDATE annotation SET text = (SELECT v FROM x)";
        QTest::newRow("insert select") << "INSERT INTO annotation(start_ns, end_ns, text) SELECT 0, 0, 'x'";
        QTest::newRow("writable_schema") << "PRAGMA writable_schema = 1";
        QTest::newRow("query_only off") << "PRAGMA query_only = 0";
        QTest::newRow("journal_mode") << "PRAGMA journal_mode = DELETE";
        QTest::newRow("user_version") << "PRAGMA user_version = 99";
        QTest::newRow("attach") << QString::fromStdString("ATTACH DATABASE '" + other + "' AS x");
        QTest::newRow("vacuum into") << QString::fromStdString("VACUUM INTO '" + other + "'");
        QTest::newRow("vacuum") << "VACUUM";
        QTest::newRow("load_extension") << "SELECT load_extension('/nonexistent/libevil')";
        QTest::newRow("two statements") << "SELECT 1; DELETE FROM annotation";
        QTest::newRow("temp table") << "CREATE TEMP TABLE t AS SELECT * FROM annotation";
        QTest::newRow("drop view") << "DROP VIEW v_annotation";
        QTest::newRow("begin") << "BEGIN IMMEDIATE";
        QTest::newRow("reindex") << "REINDEX";
        QTest::newRow("analyze") << "ANALYZE";
    }
    void disguisedWritesChangeNothing() {
        QFETCH(QString, sql);
        const QByteArray before = digest(m_session);
        const Result r = runCli({"query", m_session, sql.toStdString()});
        QVERIFY2(r.code != 0 || r.out.empty() || sql.startsWith("PRAGMA") || sql.startsWith("BEGIN"),
                 (r.out + r.err).c_str());
        QCOMPARE(digest(m_session), before);
        QVERIFY(!std::filesystem::exists(path("stolen.db")));
        QVERIFY(!std::filesystem::exists(m_session + "-journal"));
        QCOMPARE(annotations(), int64_t(1));
        QCOMPARE(runCli({"query", m_session, "PRAGMA user_version"}).out.find("99"), std::string::npos);
    }

    // Functions that reach outside the query are refused by name: fts3_tokenizer hands out (or, with
    // a second argument, installs) a code pointer, load_extension loads code.
    void connectionChangingFunctionsAreDenied_data() {
        QTest::addColumn<QString>("sql");
        QTest::newRow("fts3_tokenizer read") << "SELECT hex(fts3_tokenizer('simple'))";
        QTest::newRow("fts3_tokenizer install") << "SELECT fts3_tokenizer('simple', x'4141414141414141')";
        QTest::newRow("fts3_tokenizer in a subquery") << "SELECT (SELECT length(fts3_tokenizer('porter'))) AS n";
        QTest::newRow("load_extension upper case") << "SELECT LOAD_EXTENSION('/nonexistent/libevil')";
    }
    void connectionChangingFunctionsAreDenied() {
        QFETCH(QString, sql);
        const QByteArray before = digest(m_session);
        const Result r = runCli({"query", m_session, sql.toStdString()});
        QVERIFY2(r.code != 0 && r.out.empty() && r.err.find("not authorized") != std::string::npos, (r.out + r.err).c_str());
        QCOMPARE(digest(m_session), before);
    }

    void sessionStillIntact() {
        const Result r = runCli({"query", m_session, "PRAGMA integrity_check"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, std::string("integrity_check\nok\n"));
    }
};

} // namespace stepscope

QTEST_GUILESS_MAIN(stepscope::TstQueryReadonly)
#include "tst_query_readonly.moc"

// A session file may come from someone else (DESIGN.md "Session files are input too"): opening one
// never runs SQL it carries. A view of ours rewritten to never finish is refused read-only and
// restored read-write; a table of ours with another definition is refused; foreign triggers are
// dropped (and said so) before a re-import could fire them; the user's own extra objects are left
// alone; SQLite files that are not Stepscope sessions are refused untouched; every connection,
// the loaders' included, runs with trusted_schema off, defensive mode and no extension loading.

#include "models/store/annotation_store.h"
#include "tests/importers/import_test_support.h"
#include "tests/store/store_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {
// v_slice's columns, produced forever.
const char *kEndlessView =
    "DROP VIEW v_slice; CREATE VIEW v_slice AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
    "SELECT 'run' AS run, 'host_thread' AS track_kind, NULL AS device, 't' AS track, 'n' AS name, 'c' AS category, "
    "x AS start_ns, 1 AS dur_ns, 0 AS depth FROM c;";

QString refusal(const fs::path &file, SessionStore::Mode mode) {
    try {
        SessionStore s(file, mode);
    } catch (const StoreError &e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("<opened>");
}

int config(sqlite3 *db, int op) {
    int value = -1;
    sqlite3_db_config(db, op, -1, &value);
    return value;
}

// Message of the error `sql` raises on `db`, or "<ok>".
QString errorOf(sqlite3 *db, const std::string &sql) {
    try {
        SqliteStatement st(db, sql);
        while (st.step()) {}
    } catch (const StoreError &e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("<ok>");
}
} // namespace

class TstSessionTrust : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path path(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

    fs::path session(const std::string &name) {
        const fs::path file = path(name);
        writeSession(file);
        return file;
    }

private slots:
    void alteredViewIsRefusedReadOnlyWithoutRunningIt() {
        const fs::path file = session("endless.stepscope");
        QCOMPARE(rawExec(file, kEndlessView), std::string());
        const QString msg = refusal(file, SessionStore::Mode::ReadOnly);
        QVERIFY2(msg.contains(QString::fromStdString(file.string()) + ": session was altered: view v_slice is not Stepscope's"),
                 qPrintable(msg));
        // The loaders' connections are checked the same way.
        QVERIFY_THROWS_EXCEPTION(StoreError, SessionStore::openReadOnlyConnection(file));
    }

    void alteredViewIsRestoredReadWrite() {
        const fs::path file = session("restored.stepscope");
        QCOMPARE(rawExec(file, kEndlessView), std::string());
        {
            SessionStore s(file);
            QCOMPARE(s.openWarnings().size(), size_t(1));
            QVERIFY2(QString::fromStdString(s.openWarnings()[0]).startsWith("restored view v_slice"), s.openWarnings()[0].c_str());
            QCOMPARE(scalar(s.db(), "SELECT count(*) FROM v_slice"), int64_t(3));
            QCOMPARE(scalar(s.db(), "SELECT count(*) FROM import_log WHERE code = 'session_repaired'"), int64_t(1));
        }
        SessionStore ro(file, SessionStore::Mode::ReadOnly);  // Stepscope's again
        QCOMPARE(scalar(ro.db(), "SELECT count(*) FROM v_slice"), int64_t(3));
    }

    void missingIndexIsRestoredReadWrite() {
        const fs::path file = session("noindex.stepscope");
        QCOMPARE(rawExec(file, "DROP INDEX slice_track_start"), std::string());
        { SessionStore ro(file, SessionStore::Mode::ReadOnly); }  // only slower: still readable
        SessionStore s(file);
        QCOMPARE(scalar(s.db(), "SELECT count(*) FROM sqlite_schema WHERE name = 'slice_track_start'"), int64_t(1));
    }

    void alteredTableIsRefusedAndLeftUntouched() {
        const fs::path file = session("table.stepscope");
        QCOMPARE(rawExec(file, "ALTER TABLE annotation ADD COLUMN extra TEXT DEFAULT 'x'"), std::string());
        const QByteArray before = digest(file);
        const QString rw = refusal(file, SessionStore::Mode::ReadWrite);
        QVERIFY2(rw.contains("session was altered: table annotation is not Stepscope's") && rw.contains("refusing to modify it"),
                 qPrintable(rw));
        QCOMPARE(digest(file), before);
        const QString ro = refusal(file, SessionStore::Mode::ReadOnly);
        QVERIFY2(ro.contains("table annotation is not Stepscope's"), qPrintable(ro));
    }

    void viewInPlaceOfATableIsRefused() {
        const fs::path file = session("swapped.stepscope");
        QCOMPARE(rawExec(file, "DROP TABLE bookmark; CREATE VIEW bookmark AS SELECT 1 AS id"), std::string());
        const QString msg = refusal(file, SessionStore::Mode::ReadWrite);
        QVERIFY2(msg.contains("bookmark is a view, not Stepscope's table"), qPrintable(msg));
    }

    // Issue #20: a trigger carried by the session deleted every note at the next import.
    void foreignTriggerNeverFiresOnReimport() {
        const fs::path trace = path("t.json");
        std::ofstream(trace) << R"([{"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])";
        const fs::path file = path("trigger.stepscope");
        {
            ImportedPaths first = importPaths({trace}, file);
            QCOMPARE(first.summary.sources.size(), size_t(1));
            AnnotationStore(*first.store).insert(Annotation{0, 1000, 2000, "keep me"});
        }
        QCOMPARE(rawExec(file, "CREATE TRIGGER t AFTER INSERT ON slice BEGIN DELETE FROM annotation; END;"), std::string());
        ImportedPaths again = importPaths({trace}, file);  // re-import of the same file
        QCOMPARE(again.summary.sources.size(), size_t(1));
        QCOMPARE(queryInt(*again.store, "SELECT count(*) FROM slice"), int64_t(1));
        QCOMPARE(queryRows(*again.store, "SELECT text FROM annotation"), QStringList{"keep me"});
        QCOMPARE(queryInt(*again.store, "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'"), int64_t(0));
        QCOMPARE(queryRows(*again.store, "SELECT severity, code FROM import_log WHERE code = 'session_repaired'"),
                 QStringList{"warning|session_repaired"});
    }

    void usersOwnObjectsAreLeftAlone() {
        const fs::path file = session("extras.stepscope");
        QCOMPARE(rawExec(file, "CREATE TABLE my_notes(x); INSERT INTO my_notes VALUES ('mine');"
                               "CREATE VIEW my_view AS SELECT x FROM my_notes; CREATE INDEX my_index ON slice(dur_ns);"),
                 std::string());
        { SessionStore ro(file, SessionStore::Mode::ReadOnly); }
        SessionStore s(file);
        QVERIFY(s.openWarnings().empty());
        QCOMPARE(scalar(s.db(), "SELECT count(*) FROM sqlite_schema WHERE name IN ('my_notes', 'my_view', 'my_index')"), int64_t(3));
        QCOMPARE(text(s.db(), "SELECT x FROM my_view"), std::string("mine"));
    }

    void sqliteFileOfAnotherProgramIsRefusedUntouched_data() {
        QTest::addColumn<QString>("sql");
        QTest::newRow("other tables") << "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers(name) VALUES ('a');";
        QTest::newRow("other application_id")
            << "PRAGMA application_id = 1234; PRAGMA user_version = 2; CREATE TABLE meta(a); CREATE TABLE string(a);"
               "CREATE TABLE source(a); CREATE TABLE run(a); CREATE TABLE track(a); CREATE TABLE slice(a);";
        QTest::newRow("only a user_version") << "PRAGMA user_version = 3;";
    }
    void sqliteFileOfAnotherProgramIsRefusedUntouched() {
        QFETCH(QString, sql);
        const fs::path file = path("other-" + std::to_string(qHash(sql)) + ".db");
        QCOMPARE(rawExec(file, sql.toStdString()), std::string());
        const QByteArray before = digest(file);
        const QString rw = refusal(file, SessionStore::Mode::ReadWrite);
        QVERIFY2(rw.startsWith(QString::fromStdString(file.string()) + ": not a Stepscope session (application_id 0x") &&
                     rw.endsWith("refusing to modify it"), qPrintable(rw));
        QCOMPARE(digest(file), before);
        QVERIFY(!fs::exists(file.string() + "-wal"));
        const QString ro = refusal(file, SessionStore::Mode::ReadOnly);
        QVERIFY2(ro.contains("not a Stepscope session"), qPrintable(ro));
        QCOMPARE(digest(file), before);
    }

    void sessionsCarryStepscopesApplicationId() {
        const fs::path file = session("stamped.stepscope");
        {
            SessionStore s(file, SessionStore::Mode::ReadOnly);
            QCOMPARE(scalar(s.db(), "PRAGMA application_id"), int64_t(kStepscopeApplicationId));
        }
        // A session of an earlier build (no application_id yet) opens, and is stamped read-write.
        QCOMPARE(rawExec(file, "PRAGMA application_id = 0"), std::string());
        { SessionStore ro(file, SessionStore::Mode::ReadOnly); }
        SessionStore s(file);
        QCOMPARE(scalar(s.db(), "PRAGMA application_id"), int64_t(kStepscopeApplicationId));
    }

    void everyConnectionDistrustsTheFile() {
        const fs::path file = session("settings.stepscope");
        QCOMPARE(rawExec(file, "CREATE VIEW my_pointer AS SELECT fts3_tokenizer('simple') AS p"), std::string());
        SessionStore rw(file);
        SessionStore ro(file, SessionStore::Mode::ReadOnly);
        SessionConnection loader = SessionStore::openReadOnlyConnection(file);
        for (sqlite3 *db : {rw.db(), ro.db(), loader.db()}) {
            QCOMPARE(scalar(db, "PRAGMA trusted_schema"), int64_t(0));
            QCOMPARE(config(db, SQLITE_DBCONFIG_DEFENSIVE), 1);
            QCOMPARE(config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER), 0);
            QCOMPARE(config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION), 0);
            QCOMPARE(config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER), 0);
            // A view may not call a function with side effects; a statement may not install a tokenizer.
            QVERIFY(errorOf(db, "SELECT p FROM my_pointer").contains("unsafe use of fts3_tokenizer"));
            QVERIFY(errorOf(db, "SELECT fts3_tokenizer('evil', x'0102030405060708')") != "<ok>");
            QVERIFY(errorOf(db, "SELECT load_extension('/nonexistent/libevil')") != "<ok>");
        }
        QVERIFY_THROWS_EXCEPTION(StoreError, sqliteExec(rw.db(), "PRAGMA writable_schema = 1; "
                                                                 "UPDATE sqlite_schema SET sql = 'x' WHERE name = 'v_slice'"));
    }
};

QTEST_GUILESS_MAIN(TstSessionTrust)
#include "tst_session_trust.moc"

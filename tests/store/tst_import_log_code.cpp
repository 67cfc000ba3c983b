// import_log's code column: every code has its own stored text and reads back as itself, the list
// in docs/session-format.md names each one, a session from before the column (schema version 8)
// opens with its log rows kept (code ''), and rows written after carry their code.

#include "models/store/import_log_code.h"
#include "models/store/session_reader.h"
#include "models/store/session_writer.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <set>
#include <sstream>

using namespace stepscope;

namespace {
std::vector<ImportLogCode> allCodes() {
    return {
#define STEPSCOPE_TEST_EVERY_CODE(name, text, description) ImportLogCode::name,
        STEPSCOPE_IMPORT_LOG_CODES(STEPSCOPE_TEST_EVERY_CODE)
#undef STEPSCOPE_TEST_EVERY_CODE
    };
}
} // namespace

class TestImportLogCode : public QObject {
    Q_OBJECT
private slots:
    void codesAreDistinctAndReadBack() {
        std::set<std::string_view> seen;
        for (ImportLogCode code : allCodes()) {
            const std::string_view name = importLogCodeName(code);
            QVERIFY2(seen.insert(name).second, name.data());
            QCOMPARE(importLogCodeFromName(name), code);
            QVERIFY(!importLogCodeDescription(code).empty());
            if (code != ImportLogCode::Unspecified)
                QVERIFY2(!name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string_view::npos,
                         name.data());
        }
        QCOMPARE(importLogCodeFromName("no_such_code"), ImportLogCode::Unspecified);
    }

    void everyCodeIsDocumented() {
        std::ifstream in(std::filesystem::path(STEPSCOPE_SOURCE_DIR) / "docs" / "session-format.md");
        std::stringstream text;
        text << in.rdbuf();
        QVERIFY(!text.str().empty());
        for (ImportLogCode code : allCodes()) {
            if (code == ImportLogCode::Unspecified) continue;
            const std::string row = "| `" + std::string(importLogCodeName(code)) + "` |";
            QVERIFY2(text.str().find(row) != std::string::npos, row.c_str());
        }
    }

    void sessionFromBeforeCodesKeepsItsLog() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("v8.stepscope").toStdString();
        {
            // A session written by a build that knew migrations 1 to 8, with one log row.
            const auto &all = SessionStore::builtinMigrations();
            const std::vector<Migration> v8(all.begin(), all.begin() + 8);
            SessionStore old(path, SessionStore::Mode::ReadWrite, v8);
            QCOMPARE(old.schemaVersion(), 8);
            sqliteExec(old.db(), "INSERT INTO import_log(source_id, severity, file, position, message) "
                                 "VALUES (NULL, 'warning', '/t.json', 'byte 3', 'old words')");
        }
        SessionStore store(path);
        QCOMPARE(store.schemaVersion(), SessionStore::latestSchemaVersion());
        SessionWriter writer(store);
        writer.begin();
        writer.log(std::nullopt, Severity::Error, ImportLogCode::TruncatedGzip, "/t.json.gz", "compressed byte 9", "new words");
        writer.commit();
        const std::vector<LogRow> rows = SessionReader(store).importLog();
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[0].code, std::string());
        QCOMPARE(rows[0].message, std::string("old words"));
        QCOMPARE(rows[0].position, std::string("byte 3"));
        QCOMPARE(rows[1].code, std::string("truncated_gzip"));
        QCOMPARE(rows[1].severity, Severity::Error);
    }
};

QTEST_GUILESS_MAIN(TestImportLogCode)
#include "tst_import_log_code.moc"

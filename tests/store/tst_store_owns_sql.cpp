// The store owns the SQL (issue #30, item 2): SQL text lives in models/store behind typed APIs, so
// a schema change is one folder's business and every statement can be reviewed in one place. This
// walks the source tree and fails, naming the file, line and text, when a string literal outside
// models/store holds SQL, or a file there runs statements itself (SqliteStatement, sqliteExec).
// The exceptions are readers and writers of foreign files, whose SQL is about those files.

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Allowance {
    std::string prefix;
    std::string why;
};

const std::vector<Allowance> &allowances() {
    static const std::vector<Allowance> kAllowed = {
        {"models/store/", "the store"},
        {"importers/nsys/", "reads Nsight Systems' own SQLite export (a foreign file)"},
        {"app/synth/", "the generator writes Nsight Systems exports (foreign files) for tests and benchmarks"},
    };
    return kAllowed;
}

// The string literals of one line of C++, escapes kept as written.
std::vector<std::string> literalsOf(const std::string &line) {
    static const std::regex literal("\"((?:[^\"\\\\]|\\\\.)*)\"");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), literal); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1]);
    return out;
}

// True when `text` (one literal) reads as SQL: a statement's opening words, or a query's clauses.
bool looksLikeSql(const std::string &text) {
    static const std::vector<std::regex> kSql = {
        std::regex("\\bSELECT\\s+(DISTINCT\\s+)?[A-Za-z_*(]"),
        std::regex("^\\s*FROM\\s+[a-z_]+\\b"),
        std::regex("\\bINSERT\\s+(OR\\s+[A-Z]+\\s+)?INTO\\b"),
        std::regex("\\bUPDATE\\s+[a-z_]+\\s+SET\\b"),
        std::regex("\\bDELETE\\s+FROM\\b"),
        std::regex("\\b(CREATE|DROP)\\s+(TEMP\\s+|TEMPORARY\\s+|UNIQUE\\s+)?(TABLE|INDEX|VIEW|TRIGGER)\\b"),
        std::regex("\\bPRAGMA\\s+[a-z_]+"),
        std::regex("\\bBEGIN\\s+(IMMEDIATE|EXCLUSIVE|DEFERRED|TRANSACTION)\\b"),
        std::regex("^\\s*(COMMIT|ROLLBACK|BEGIN|VACUUM)\\s*;?\\s*$"),
        std::regex("\\bWHERE\\s+[a-z_.]+\\s*(=|<|>|IN\\b|IS\\b|LIKE\\b)"),
    };
    for (const std::regex &r : kSql)
        if (std::regex_search(text, r)) return true;
    return false;
}

// The problems of one line: SQL in a literal, or a statement run directly.
std::vector<std::string> sqlProblemsOf(const std::string &line) {
    static const std::regex runsSql("\\b(SqliteStatement|sqliteExec)\\b");
    std::vector<std::string> out;
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && (line.compare(first, 2, "//") == 0 || line[first] == '*')) return out;  // a comment
    for (const std::string &text : literalsOf(line))
        if (looksLikeSql(text)) out.push_back("SQL text \"" + text + "\"");
    if (std::regex_search(line, runsSql)) out.push_back("runs SQL itself: " + line.substr(first));
    return out;
}

} // namespace

class TstStoreOwnsSql : public QObject {
    Q_OBJECT
private slots:
    // The detector is what the walk below relies on: it must see SQL, and not the usage text or
    // prose that mentions it.
    void theDetectorTellsSqlFromProse() {
        for (const char *sql : {"SELECT id FROM slice WHERE track_id = ?1", "SELECT s.id, n.text, s.start_ns ",
                                "FROM flow f JOIN slice s ON s.id = f.to_slice_id", "INSERT OR REPLACE INTO x(a) VALUES (?1)",
                                "UPDATE annotation SET text = ?2 WHERE id = ?1", "DELETE FROM bookmark WHERE id = ?1",
                                "CREATE INDEX i ON t(a)", "PRAGMA quick_check(1)", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK",
                                "SELECT count(*) FROM t", "WHERE s.track_id = ?1 AND s.start_ns >= ?2"})
            QVERIFY2(looksLikeSql(sql), sql);
        for (const char *prose : {"SELECT ...", "usage: stepscope query S.stepscope \\\"SELECT ...\\\" [--format csv|json]",
                                  "select a run", "Commit the import", "from the store", "where the slices begin",
                                  "the update is saved"})
            QVERIFY2(!looksLikeSql(prose), prose);
        QCOMPARE(sqlProblemsOf("    SqliteStatement st(db, \"SELECT text FROM string WHERE id = ?1\");").size(), size_t(2));
        QVERIFY(sqlProblemsOf("    sqliteExec(db, \"COMMIT\");").size() == 2);
        QVERIFY(sqlProblemsOf("// SqliteStatement st(db, \"SELECT a FROM b\") in a comment").empty());
        QVERIFY(sqlProblemsOf("    io.err << \"usage: stepscope query S.stepscope \\\"SELECT ...\\\"\";").empty());
    }

    void sqlLivesInTheStore() {
        const fs::path root = STEPSCOPE_SOURCE_DIR;
        QStringList problems;
        int files = 0, storeFilesWithSql = 0;
        for (const char *top : {"models", "importers", "views", "app"}) {
            for (const auto &entry : fs::recursive_directory_iterator(root / top)) {
                const std::string ext = entry.path().extension().string();
                if (!entry.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
                ++files;
                const std::string rel = fs::relative(entry.path(), root).generic_string();
                bool allowed = false;
                for (const Allowance &a : allowances()) allowed = allowed || rel.rfind(a.prefix, 0) == 0;
                std::ifstream in(entry.path());
                std::string line;
                bool any = false;
                for (int n = 1; std::getline(in, line); ++n) {
                    const std::vector<std::string> found = sqlProblemsOf(line);
                    any = any || !found.empty();
                    if (!allowed)
                        for (const std::string &p : found) problems << QString::fromStdString(rel + ":" + std::to_string(n) + ": " + p);
                }
                if (any && rel.rfind("models/store/", 0) == 0) ++storeFilesWithSql;
            }
        }
        QVERIFY(files > 300);             // the tree was found
        QVERIFY(storeFilesWithSql >= 8);  // and the detector sees the store's own statements
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TstStoreOwnsSql)
#include "tst_store_owns_sql.moc"

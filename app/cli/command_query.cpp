// `stepscope query S.stepscope "SELECT ..." [--format csv|json]`: read-only SQL over a session.
// Read-only is enforced by SQLite itself (read-only connection + query_only + statement check +
// an authorizer), never by looking at the SQL text. The authorizer closes what the others let
// through: ATTACH creates a file at any path even on a read-only connection, a PRAGMA that sets
// a value (query_only = 0, writable_schema = 1) changes the connection, and a few SQL functions
// reach outside the query (fts3_tokenizer hands out or installs code pointers, load_extension loads
// code, readfile/writefile/edit touch files or start programs where a build registers them).

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "models/store/printable_text.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <ostream>

namespace stepscope::cli {

namespace {
// Denies ATTACH/DETACH, the functions above and pragmas that set something; pragmas that only
// read (with or without an argument such as a table name) stay allowed.
int readOnlyAuthorizer(void *, int action, const char *name, const char *arg, const char *, const char *) {
    if (action == SQLITE_ATTACH || action == SQLITE_DETACH) return SQLITE_DENY;
    if (action == SQLITE_FUNCTION) {
        static const char *const kDenied[] = {"fts3_tokenizer", "load_extension", "readfile", "writefile", "edit"};
        for (const char *f : kDenied)
            if (arg && sqlite3_stricmp(arg, f) == 0) return SQLITE_DENY;
        return SQLITE_OK;
    }
    if (action != SQLITE_PRAGMA || !arg) return SQLITE_OK;
    static const char *const kReadWithArgument[] = {"table_info", "table_xinfo", "table_list", "index_list", "index_info",
                                                    "index_xinfo", "foreign_key_list", "foreign_key_check",
                                                    "integrity_check", "quick_check", "function_list", "pragma_list"};
    for (const char *p : kReadWithArgument)
        if (name && sqlite3_stricmp(name, p) == 0) return SQLITE_OK;
    return SQLITE_DENY;
}

std::string csvField(const std::string &v) {
    if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
    std::string out = "\"";
    for (char c : v) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}
} // namespace

int runQuery(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--format"});
    if (!a.ok() || a.positional().size() != 2) {
        io.err << "stepscope query: " << (a.ok() ? "usage: stepscope query S.stepscope \"SELECT ...\" [--format csv|json]" : a.error())
               << "\n";
        return Usage;
    }
    const std::string format = a.value("--format").value_or("csv");
    if (format != "csv" && format != "json") {
        io.err << "stepscope query: unknown format '" << format << "' (csv or json)\n";
        return Usage;
    }
    const std::string &file = a.positional()[0];
    const std::string &sql = a.positional()[1];
    if (!isSessionFile(file)) {
        io.err << "stepscope query: " << file << ": not a Stepscope session file\n";
        return Unreadable;
    }
    try {
        SessionStore store(file, SessionStore::Mode::ReadOnly);
        sqlite3_limit(store.db(), SQLITE_LIMIT_ATTACHED, 0);
        sqlite3_set_authorizer(store.db(), readOnlyAuthorizer, nullptr);
        sqlite3_stmt *raw = nullptr;
        const char *tail = nullptr;
        // A damaged file is unreadable input (2); anything else is a mistake in the SQL (1).
        const auto fail = [&] {
            const int primary = sqlite3_extended_errcode(store.db()) & 0xff;
            const bool damaged = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_IOERR;
            io.err << "stepscope query: " << (damaged ? printableText(file) + ": " : std::string())
                   << sqliteErrorMessage(store.db(), sqlite3_extended_errcode(store.db())) << "\n";
            return damaged ? Unreadable : Usage;
        };
        if (sqlite3_prepare_v2(store.db(), sql.c_str(), int(sql.size()), &raw, &tail) != SQLITE_OK) return fail();
        struct Finalizer { sqlite3_stmt *s; ~Finalizer() { sqlite3_finalize(s); } } fin{raw};
        if (!raw) {
            io.err << "stepscope query: empty query\n";
            return Usage;
        }
        if (!sqlite3_stmt_readonly(raw)) {
            io.err << "stepscope query: refused: the statement would change the session; the query command is read-only\n";
            return Usage;
        }
        if (tail && std::string(tail).find_first_not_of(" \t\r\n;") != std::string::npos) {
            io.err << "stepscope query: give one statement at a time\n";
            return Usage;
        }
        // Rows are written as they are read, in CSV and JSON alike: a query over millions of rows
        // never holds them in memory. JSON is an array with one compact object per line.
        const int cols = sqlite3_column_count(raw);
        if (format == "csv") {
            for (int c = 0; c < cols; ++c) io.out << (c ? "," : "") << csvField(sqlite3_column_name(raw, c));
            io.out << "\n";
        } else {
            io.out << "[";
        }
        int rc;
        int64_t rows = 0;
        while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
            QJsonObject obj;
            for (int c = 0; c < cols; ++c) {
                const int type = sqlite3_column_type(raw, c);
                const char *txt = reinterpret_cast<const char *>(sqlite3_column_text(raw, c));
                const std::string v = txt ? txt : "";
                if (format == "csv") {
                    io.out << (c ? "," : "") << (type == SQLITE_NULL ? "" : csvField(v));
                } else {
                    const QString key = QString::fromUtf8(sqlite3_column_name(raw, c));
                    if (type == SQLITE_INTEGER) obj[key] = qint64(sqlite3_column_int64(raw, c));
                    else if (type == SQLITE_FLOAT) obj[key] = sqlite3_column_double(raw, c);
                    else if (type == SQLITE_NULL) obj[key] = QJsonValue::Null;
                    else obj[key] = QString::fromStdString(v);
                }
            }
            if (format == "csv") io.out << "\n";
            else io.out << (rows ? ",\n" : "\n") << QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString();
            ++rows;
            if (!io.out) break;  // the output is gone (closed pipe, full disk): stop reading
        }
        if (rc != SQLITE_DONE && rc != SQLITE_ROW) return fail();
        if (format == "json") io.out << "\n]\n";
        return Ok;
    } catch (const StoreError &e) {
        io.err << "stepscope query: " << e.what() << "\n";
        return Unreadable;
    }
}

} // namespace stepscope::cli

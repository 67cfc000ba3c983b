#include "models/store/sqlite_statement.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <utility>

namespace stepscope {

namespace {
// Which connection's statement the progress handler of this thread stopped last, and its limit.
struct StatementStop {
    sqlite3 *db = nullptr;
    int64_t limitMs = 0;
};
thread_local StatementStop t_stop;

[[noreturn]] void fail(sqlite3 *db, std::string_view what) {
    throw StoreError(std::string(what) + ": " + (db ? sqliteErrorMessage(db, sqlite3_extended_errcode(db)) : "no database"));
}
} // namespace

SqliteStatement::SqliteStatement(sqlite3 *db, std::string_view sql) : m_db(db) {
    if (sqlite3_prepare_v3(db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK)
        fail(db, "cannot prepare statement");
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

SqliteStatement::SqliteStatement(SqliteStatement &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_stmt(std::exchange(other.m_stmt, nullptr)) {}

SqliteStatement &SqliteStatement::operator=(SqliteStatement &&other) noexcept {
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_db = std::exchange(other.m_db, nullptr);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

void SqliteStatement::bind(int index, int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
void SqliteStatement::bind(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
void SqliteStatement::bind(int index, std::string_view text) {
    sqlite3_bind_text(m_stmt, index, text.data(), int(text.size()), SQLITE_TRANSIENT);
}
void SqliteStatement::bindNull(int index) { sqlite3_bind_null(m_stmt, index); }
void SqliteStatement::bind(int index, std::optional<int64_t> value) {
    if (value) bind(index, *value); else bindNull(index);
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    const std::string msg = sqliteErrorMessage(m_db, rc);
    sqlite3_reset(m_stmt);
    throw StoreError(msg);
}

void SqliteStatement::run() {
    while (step()) {}
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t SqliteStatement::columnInt(int col) const { return sqlite3_column_int64(m_stmt, col); }
double SqliteStatement::columnDouble(int col) const { return sqlite3_column_double(m_stmt, col); }
std::string SqliteStatement::columnText(int col) const {
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
    return p ? std::string(p, size_t(sqlite3_column_bytes(m_stmt, col))) : std::string();
}
bool SqliteStatement::columnIsNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
int SqliteStatement::columnCount() const { return sqlite3_column_count(m_stmt); }
int SqliteStatement::columnType(int col) const { return sqlite3_column_type(m_stmt, col); }

void sqliteExec(sqlite3 *db, std::string_view sql) {
    char *err = nullptr;
    const std::string text(sql);
    if (const int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
        std::string msg = sqliteErrorMessage(db, rc, err);
        sqlite3_free(err);
        throw StoreError(msg);
    }
}

void noteStatementStopped(sqlite3 *db, int64_t limitMs) { t_stop = {db, limitMs}; }

void clearStatementStop(sqlite3 *db) {
    if (t_stop.db == db) t_stop = {};
}

std::string sqliteErrorMessage(sqlite3 *db, int rc, const char *message) {
    const int primary = rc & 0xff;
    if (primary == SQLITE_INTERRUPT && db && t_stop.db == db) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", double(t_stop.limitMs) / 1000.0);
        t_stop = {};
        return std::string("statement stopped after ") + seconds + " s (the time limit for one statement)";
    }
    std::string msg = message ? message : (db ? sqlite3_errmsg(db) : "no database");
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_IOERR) {
        const char *file = db ? sqlite3_db_filename(db, "main") : nullptr;
        if (file && *file) msg = std::string(file) + ": " + msg;
        if (primary != SQLITE_IOERR) msg += " (the file is damaged)";
    }
    return msg;
}

std::string sqliteFileUri(const std::filesystem::path &file, std::string_view query) {
    std::error_code ec;
    const std::string path = std::filesystem::absolute(file, ec).string();
    std::string uri = "file:";
    static const char kHex[] = "0123456789ABCDEF";
    for (unsigned char c : path) {
        if (std::isalnum(c) || std::strchr("/._~-", c)) {
            uri += char(c);
        } else {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 15];
        }
    }
    uri += '?';
    uri += query;
    return uri;
}

void SqliteStatement::bindBlob(int index, const void *data, size_t bytes) {
    if (sqlite3_bind_blob64(m_stmt, index, data, sqlite3_uint64(bytes), SQLITE_STATIC) != SQLITE_OK) fail(m_db, "bind");
}

std::string_view SqliteStatement::columnBlob(int col) const {
    const void *blob = sqlite3_column_blob(m_stmt, col);
    const int bytes = sqlite3_column_bytes(m_stmt, col);
    return blob && bytes > 0 ? std::string_view(static_cast<const char *>(blob), size_t(bytes)) : std::string_view();
}

int64_t SqliteStatement::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }

void distrustFileSql(sqlite3 *db) {
    struct Setting { int op; int value; const char *name; };
    static const Setting kSettings[] = {
        {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "trusted_schema"},
        {SQLITE_DBCONFIG_DEFENSIVE, 1, "defensive"},
        {SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, "fts3_tokenizer"},
        {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "load_extension"},
        {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "triggers"},
    };
    for (const Setting &s : kSettings) {
        int now = -1;
        if (sqlite3_db_config(db, s.op, s.value, &now) != SQLITE_OK || now != s.value)
            throw StoreError(std::string("this SQLite cannot switch off ") + s.name);
    }
    sqlite3_extended_result_codes(db, 1);
    sqliteExec(db, "PRAGMA cell_size_check=ON");
}

} // namespace stepscope

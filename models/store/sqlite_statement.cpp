#include "models/store/sqlite_statement.h"

#include <utility>

namespace stepscope {

namespace {
[[noreturn]] void fail(sqlite3 *db, std::string_view what) {
    throw StoreError(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "no database"));
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
    const std::string msg = sqlite3_errmsg(m_db);
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
std::string SqliteStatement::columnName(int col) const {
    const char *n = sqlite3_column_name(m_stmt, col);
    return n ? n : "";
}
int SqliteStatement::columnType(int col) const { return sqlite3_column_type(m_stmt, col); }

void sqliteExec(sqlite3 *db, std::string_view sql) {
    char *err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db);
        sqlite3_free(err);
        throw StoreError(msg);
    }
}

} // namespace stepscope

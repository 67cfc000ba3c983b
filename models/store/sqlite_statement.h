#pragma once
// Thin RAII wrappers over the SQLite C API, shared by the store's writer, reader and query runner.
// Errors become StoreError exceptions carrying SQLite's own message.

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stepscope {

class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3 *db, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement &&other) noexcept;
    SqliteStatement &operator=(SqliteStatement &&other) noexcept;
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    void bind(int index, int64_t value);
    void bind(int index, double value);
    void bind(int index, std::string_view text);
    void bindNull(int index);
    void bind(int index, std::optional<int64_t> value);
    // Binds `bytes` bytes at `data` as a BLOB without copying: they must stay until the step.
    void bindBlob(int index, const void *data, size_t bytes);

    // Steps once; true while a row is available.
    bool step();
    // Steps to completion (for statements that return no rows) and resets for reuse.
    void run();
    void reset();

    int64_t columnInt(int col) const;
    double columnDouble(int col) const;
    std::string columnText(int col) const;
    bool columnIsNull(int col) const;
    int columnCount() const;
    int columnType(int col) const;
    // A BLOB column's bytes, valid until the next step or reset.
    std::string_view columnBlob(int col) const;
    // The rowid of the last row this statement's connection inserted.
    int64_t lastInsertId() const;

    sqlite3_stmt *handle() const { return m_stmt; }

private:
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
};

// Nothing in the file a connection opened gets to run code or change the connection: views and
// indexes may call only innocuous functions, triggers never fire, extension loading and
// fts3_tokenizer's pointer form are off, defensive mode keeps writable_schema and friends from
// editing sqlite_schema or pages directly, and damaged pages give an error when read rather than a
// wrong row later. Extended result codes on. Throws StoreError when this SQLite cannot comply.
// Every connection Stepscope opens (sessions, Nsight Systems exports) calls it first.
void distrustFileSql(sqlite3 *db);

// A `file:` URI naming `file` (made absolute, every byte outside [A-Za-z0-9/._~-] percent-encoded)
// with `query` (e.g. "immutable=1": no locks, no -shm, the file taken as it is), for
// sqlite3_open_v2 with SQLITE_OPEN_URI.
std::string sqliteFileUri(const std::filesystem::path &file, std::string_view query);

// Executes one or more statements that return no rows.
void sqliteExec(sqlite3 *db, std::string_view sql);

// The message for a failed call: SQLite's own, except that a statement stopped by its time limit
// says so, and damaged or unreadable files are named (the caller may not know which file it was).
std::string sqliteErrorMessage(sqlite3 *db, int rc, const char *message = nullptr);

// Called by a connection's progress handler, on the thread running the statement, just before it
// stops the statement for running longer than `limitMs`; read back by sqliteErrorMessage().
void noteStatementStopped(sqlite3 *db, int64_t limitMs);
void clearStatementStop(sqlite3 *db);

} // namespace stepscope

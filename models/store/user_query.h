#pragma once
// UserQuery runs one SQL statement a user wrote (stepscope query) over a session, read-only. Read-only
// is enforced by SQLite itself — the read-only connection, the statement check and an authorizer —
// never by looking at the SQL text. The authorizer closes what the others let through: ATTACH creates
// a file at any path even on a read-only connection, a PRAGMA that sets a value (query_only = 0,
// writable_schema = 1) changes the connection, and a few SQL functions reach outside the query
// (fts3_tokenizer hands out or installs code pointers, load_extension loads code, readfile/writefile/
// edit touch files or start programs where a build registers them). Rows are read one at a time, so
// a query over millions of rows never holds them in memory.

#include "models/store/session_store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stepscope {

class UserQuery {
public:
    enum class Problem {
        None,
        BadSql,   // SQLite refused the text (syntax, unknown table, a denied function or pragma)
        Damaged,  // the session file cannot be read
        Empty,    // no statement
        Writes,   // the statement would change the session
        Several,  // more than one statement
    };
    struct Value {
        enum class Type { Null, Integer, Float, Text, Blob };
        Type type = Type::Null;
        int64_t integer = 0;
        double real = 0;
        // Every non-NULL value as SQLite prints it, text whole (NUL bytes included); a blob as the SQL
        // literal X'0A1B…' (upper-case hex), never cut at its first zero byte.
        std::string text;
    };

    // Prepares `sql` on the store's connection (which it restricts: no ATTACH, the authorizer).
    UserQuery(SessionStore &store, const std::string &sql);
    ~UserQuery();
    UserQuery(const UserQuery &) = delete;
    UserQuery &operator=(const UserQuery &) = delete;

    Problem problem() const { return m_problem; }
    // Why, in words (SQLite's message for BadSql and Damaged).
    const std::string &message() const { return m_message; }
    const std::vector<std::string> &columns() const { return m_columns; }

    // The next row into `row`; false at the end, or when reading failed (problem() then says why).
    bool next(std::vector<Value> &row);

private:
    void failed();

    SessionStore &m_store;
    sqlite3_stmt *m_stmt = nullptr;
    Problem m_problem = Problem::None;
    std::string m_message;
    std::vector<std::string> m_columns;
};

} // namespace stepscope

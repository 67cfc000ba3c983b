#pragma once
// SessionSchema is what Stepscope's own schema objects look like -- the tables, indexes and views
// its migrations create -- built by running the migrations into an in-memory database (once per
// process for the built-in ones). A session from someone else may carry one of our views rewritten
// to never finish, a table of ours with another definition, or triggers that delete the user's
// notes on the next import; SessionStore compares every open session with this before it runs
// anything. Objects under other names are the user's own and are left alone.

#include "models/store/sqlite_statement.h"

#include <memory>
#include <string>
#include <vector>

namespace stepscope {

struct Migration {
    int version;      // schema version after applying it
    std::string sql;  // statements to run
};

struct SchemaObject {
    std::string type;  // table, index or view
    std::string name;
    std::string sql;   // as the migrations wrote it
    std::string normalisedSql;
};

// How a session's sqlite_schema differs from Stepscope's.
struct SchemaCheck {
    std::vector<std::string> altered;         // tables (or objects of another type) that cannot be restored
    std::vector<const SchemaObject *> changed;  // views and indexes whose SQL is not ours: restorable
    std::vector<const SchemaObject *> missing;  // views and indexes that are gone: restorable
    std::vector<std::string> triggers;        // every trigger: none is ever Stepscope's
};

class SessionSchema {
public:
    // Stepscope's objects after `migrations` up to `version`; cached, so cheap to call per open.
    static std::shared_ptr<const SessionSchema> expected(const std::vector<Migration> &migrations, int version);

    SessionSchema(const std::vector<Migration> &migrations, int version);

    const std::vector<SchemaObject> &objects() const { return m_objects; }
    SchemaCheck check(sqlite3 *db) const;

    // Drops the triggers and re-creates the changed and missing views and indexes of `check`, in the
    // caller's transaction. Returns one line per repair, for the session's log.
    static std::vector<std::string> repair(sqlite3 *db, const SchemaCheck &check);

    // SQL text without comments, runs of white space or letter case outside quotes, so that only a
    // change of meaning counts as a difference.
    static std::string normalise(std::string_view sql);

private:
    std::vector<SchemaObject> m_objects;  // tables first, then indexes, then views
};

} // namespace stepscope

#pragma once
// The statement cache of the store's typed readers (SliceReader, SliceLookup, SampleReader): each
// keeps its statements and prepares one only on its first use, so a reader held across calls on a
// hot path prepares it once. Internal to models/store.

#include "models/store/sqlite_statement.h"

namespace stepscope {

// `st` prepared from `sql` on `db` on first use, reset (bindings kept until rebound) after that.
inline SqliteStatement &reusedStatement(SqliteStatement &st, sqlite3 *db, const char *sql) {
    if (!st.handle()) st = SqliteStatement(db, sql);
    else st.reset();
    return st;
}

} // namespace stepscope

#pragma once
// ForeignDatabase opens an SQLite file that is not a Stepscope session: an Nsight Systems export to
// import, or one the synthetic generator writes. A file to import is opened read-only and left
// exactly as it is: no journal, -wal or -shm appears beside it (a rollback-journal file is opened
// with mode=ro and so still honours another process's write lock; a WAL-mode file, whose readers
// would need a -shm, is read in immutable mode). A WAL-mode file whose -wal beside it holds rows not
// yet merged into it (a writer that was killed, or still runs) is copied with its -wal to a scratch
// folder and the copy opened, so the committed rows in the -wal are read too and the export is still
// not touched; the copy is removed on close. The same distrust as for sessions applies
// (distrustFileSql): nothing in the file runs code. Read errors name the file.

#include "models/store/sqlite_statement.h"

#include <filesystem>
#include <set>
#include <string>

namespace stepscope {

class ForeignDatabase {
public:
    enum class Mode { ReadOnly, Create };

    // Throws StoreError "<file>: reason" (missing, not SQLite, locked, damaged header).
    static ForeignDatabase open(const std::filesystem::path &file, Mode mode);

    ForeignDatabase() = default;
    ~ForeignDatabase();
    ForeignDatabase(ForeignDatabase &&other) noexcept;
    ForeignDatabase &operator=(ForeignDatabase &&other) noexcept;
    ForeignDatabase(const ForeignDatabase &) = delete;
    ForeignDatabase &operator=(const ForeignDatabase &) = delete;

    sqlite3 *db() const { return m_db; }
    const std::string &file() const { return m_file; }
    bool immutable() const { return m_immutable; }
    // Set when the file was read through a scratch copy (its -wal held unmerged rows).
    bool readThroughCopy() const { return !m_scratch.empty(); }

    // Names of the tables (sqlite_master type 'table'), read once at open.
    const std::set<std::string> &tables() const { return m_tables; }
    bool hasTable(const std::string &name) const { return m_tables.count(name) > 0; }
    // The columns of `table` (empty when there is no such table).
    std::set<std::string> columns(const std::string &table) const;

    // Why the last statement failed, in words for the user and without the file name: "damaged (...)",
    // "locked by another process (...)" or SQLite's own text.
    std::string lastErrorReason() const;

    // "SQLite format 3\0": the first 16 bytes of every SQLite database file.
    static bool looksLikeSqlite(std::string_view head);

private:
    void close();

    sqlite3 *m_db = nullptr;
    std::string m_file;
    bool m_immutable = false;
    std::set<std::string> m_tables;
    std::filesystem::path m_scratch;  // folder of the scratch copy, removed on close
};

} // namespace stepscope

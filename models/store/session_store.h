#pragma once
// SessionStore owns the SQLite connection to one `.stepscope` session file: it opens or creates the
// file, applies schema migrations (resources/schema/NNN_*.sql, compiled into the library), and
// refuses files written by a newer Stepscope. SessionWriter and SessionReader work through it.

#include "models/store/sqlite_statement.h"

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope {

struct Migration {
    int version;      // schema version after applying it
    std::string sql;  // statements to run
};

class SessionStore {
public:
    enum class Mode { ReadWrite, ReadOnly };

    // Opens (creating when ReadWrite and missing) and migrates to the newest schema.
    // Throws StoreError naming the file and the reason.
    explicit SessionStore(const std::filesystem::path &file, Mode mode = Mode::ReadWrite);
    // For tests: open with a given migration list instead of the built-in one.
    SessionStore(const std::filesystem::path &file, Mode mode, const std::vector<Migration> &migrations);
    ~SessionStore();
    SessionStore(const SessionStore &) = delete;
    SessionStore &operator=(const SessionStore &) = delete;

    sqlite3 *db() const { return m_db; }
    const std::filesystem::path &path() const { return m_path; }
    Mode mode() const { return m_mode; }
    int schemaVersion() const;

    // The built-in migrations, in order (from the Qt resources of the models library).
    static const std::vector<Migration> &builtinMigrations();
    static int latestSchemaVersion();

    // Session-wide settings (batch size, UI state) in session_setting.
    std::string setting(const std::string &key, const std::string &fallback = {}) const;
    void setSetting(const std::string &key, const std::string &value);

    // Per-source clock offset, keyed by source path; survives re-import.
    int64_t clockOffsetNs(const std::string &sourcePath) const;
    void setClockOffsetNs(const std::string &sourcePath, int64_t offsetNs);

private:
    void open(const std::vector<Migration> &migrations);
    void migrate(const std::vector<Migration> &migrations);

    std::filesystem::path m_path;
    Mode m_mode;
    sqlite3 *m_db = nullptr;
};

} // namespace stepscope

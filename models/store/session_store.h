#pragma once
// SessionStore owns the SQLite connection to one `.stepscope` session file: it opens or creates the
// file, applies schema migrations (resources/schema/NNN_*.sql, compiled into the library), and
// refuses files written by a newer Stepscope. SessionWriter and SessionReader work through it.
// A session may come from someone else: the connection is a hardened SessionConnection, and every
// open compares the file's schema with Stepscope's (SessionSchema) before running anything -- a
// read-write open restores our views and indexes and drops foreign triggers (saying so in
// import_log), a read-only open refuses an altered session. Users' own data goes through the small
// API below, and each write is checkpointed so that the file alone is complete.

#include "models/store/session_connection.h"
#include "models/store/session_schema.h"
#include "models/store/sqlite_statement.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace stepscope {

class SessionStore {
public:
    enum class Mode { ReadWrite, ReadOnly };

    // Opens (creating when ReadWrite and missing) and migrates to the newest schema.
    // Throws StoreError naming the file and the reason.
    explicit SessionStore(const std::filesystem::path &file, Mode mode = Mode::ReadWrite);
    // For tests: open with a given migration list instead of the built-in one.
    SessionStore(const std::filesystem::path &file, Mode mode, const std::vector<Migration> &migrations);
    ~SessionStore();  // checkpoints: nothing is left only in -wal
    SessionStore(const SessionStore &) = delete;
    SessionStore &operator=(const SessionStore &) = delete;

    // A read-only connection for a worker thread (timeline loader, background reads), opened and
    // checked like a Mode::ReadOnly store. Throws StoreError.
    static SessionConnection openReadOnlyConnection(const std::filesystem::path &file);

    sqlite3 *db() const { return m_conn.db(); }
    // For the store's typed readers (SliceReader, SampleReader, ...), which also take a loader's own
    // read-only connection.
    const SessionConnection &connection() const { return m_conn; }
    const std::filesystem::path &path() const { return m_path; }
    Mode mode() const { return m_mode; }
    int schemaVersion() const;
    // What the open repaired (foreign triggers dropped, views restored); also in import_log.
    const std::vector<std::string> &openWarnings() const { return m_openWarnings; }

    // Stops the statement running on this store's connection; safe from any thread.
    void interrupt() { m_conn.interrupt(); }
    // See SessionConnection: one statement runs at most this long (60 s by default).
    void setStatementTimeLimit(std::chrono::milliseconds limit) { m_conn.setStatementTimeLimit(limit); }
    // Makes the session file complete on its own (everything in -wal copied into it). Called after
    // each import commit and each user-data write; false when a reader delayed it (see
    // SessionConnection::checkpoint).
    bool checkpoint() { return m_conn.checkpoint(); }

    // Writes a complete, compact copy of the session to `target` (Save Session As): a new file next
    // to it, renamed over it when whole, so a failure leaves `target` as it was. Refuses this
    // session's own file. Throws StoreError naming the target and the reason.
    void saveCopyTo(const std::filesystem::path &target);

    // The built-in migrations, in order (from the Qt resources of the models library).
    static const std::vector<Migration> &builtinMigrations();
    static int latestSchemaVersion();

    // Session-wide settings (batch size, UI state) in session_setting.
    std::string setting(const std::string &key, const std::string &fallback = {}) const;
    void setSetting(const std::string &key, const std::string &value);

    // Runs `body` (statements on db()) in one write transaction, then checkpoints: all of it lands
    // or none (a StoreError, or any exception from `body`, rolls back and is rethrown). Waits at
    // most `busyWait` for another connection's write (an import) to end; then throws StoreError.
    void writeTransaction(const std::function<void()> &body,
                          std::chrono::milliseconds busyWait = SessionConnection::kBusyTimeout);

    // Per-source clock offset, keyed by source path; survives re-import.
    int64_t clockOffsetNs(const std::string &sourcePath) const;
    void setClockOffsetNs(const std::string &sourcePath, int64_t offsetNs);

private:
    void open(const std::vector<Migration> &migrations);
    void openReadWrite(const std::vector<Migration> &migrations);
    void repair(const SchemaCheck &check);
    void migrate(const std::vector<Migration> &migrations);

    std::filesystem::path m_path;
    Mode m_mode;
    SessionConnection m_conn;
    std::vector<std::string> m_openWarnings;
};

} // namespace stepscope

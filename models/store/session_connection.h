#pragma once
// SessionConnection is the one way Stepscope opens SQLite on a session file: the store's own
// connection and the read-only connections of the background loaders alike. A `.stepscope` file may
// come from someone else, so every connection distrusts the SQL the file carries (trusted_schema off,
// defensive mode, no extension loading, no fts3_tokenizer pointers, triggers never fire), bounds
// every statement by a wall-clock limit, can be interrupted from another thread, and refuses files
// that are not Stepscope sessions before anything is written to them. A read-only open of a
// session whose folder cannot hold the `-shm` file falls back to SQLite's immutable mode.
// SessionStore builds on it (migrations, schema check); SessionStore::openReadOnlyConnection() is
// what the loaders call.

#include "models/store/sqlite_statement.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace stepscope {

// `PRAGMA application_id` of every session this build writes ("Stps").
inline constexpr int32_t kStepscopeApplicationId = 0x53747073;

class SessionConnection {
public:
    enum class Access { ReadWrite, ReadOnly };

    // Opens `file` (creating it when ReadWrite and missing) and checks that it is a Stepscope
    // session, an older one without application_id, or empty. Throws StoreError "<file>: reason".
    static SessionConnection open(const std::filesystem::path &file, Access access);

    SessionConnection();
    ~SessionConnection();
    SessionConnection(SessionConnection &&other) noexcept;
    SessionConnection &operator=(SessionConnection &&other) noexcept;
    SessionConnection(const SessionConnection &) = delete;
    SessionConnection &operator=(const SessionConnection &) = delete;

    sqlite3 *db() const { return m_db; }
    Access access() const { return m_access; }
    // True when the file is read through SQLite's immutable mode (its folder is not writable).
    bool immutable() const { return m_immutable; }
    int32_t applicationId() const;

    // Stops the statement running on this connection now; safe from any thread while it is open.
    void interrupt();
    // How long a statement waits for another connection's lock before it fails (kBusyTimeout
    // unless set).
    static constexpr std::chrono::milliseconds kBusyTimeout{5000};
    void setBusyTimeout(std::chrono::milliseconds wait);
    // A statement (counted from its first step) that runs longer than this is stopped with a
    // StoreError "statement stopped after N s". Zero: no limit.
    void setStatementTimeLimit(std::chrono::milliseconds limit);
    std::chrono::milliseconds statementTimeLimit() const;
    // The limit of connections opened from now on (60 s unless changed; tests lower it).
    static void setDefaultStatementTimeLimit(std::chrono::milliseconds limit);
    static std::chrono::milliseconds defaultStatementTimeLimit();

    // Copies everything in `-wal` into the session file and truncates `-wal`, so the file alone is
    // complete. False when it could not finish now (a reader of another connection holds an older
    // snapshot past the busy timeout, or a transaction is open here): the data is safe in `-wal`
    // and the next checkpoint copies it. A no-op on read-only connections.
    bool checkpoint();

    struct Guard;  // the statement limit's state (internal; its address is given to SQLite)

private:
    void close();

    sqlite3 *m_db = nullptr;
    Access m_access = Access::ReadOnly;
    bool m_immutable = false;
    std::string m_file;  // the database file, counted in the process's open session files (empty: not counted)
    std::unique_ptr<Guard> m_guard;
};

} // namespace stepscope

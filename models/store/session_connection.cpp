#include "models/store/session_connection.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <system_error>
#include <utility>

namespace stepscope {

namespace fs = std::filesystem;

namespace {

// SQLite says "unable to open database file" or "attempt to write a readonly database" whatever the
// cause; the path says which: " (its folder /x does not exist)", " (a symbolic link loop in the
// path)", " (on a read-only file system)", ...
std::string whyNotOpened(const fs::path &file, SessionConnection::Access access) {
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0) {
        if (errno == ELOOP) return " (a symbolic link loop in its path)";
        if (errno == ENOENT) return " (its folder " + folder.string() + " does not exist)";
        if (errno == ENOTDIR) return " (a part of its path is not a folder)";
        return " (its folder " + folder.string() + ": " + std::strerror(errno) + ")";
    }
    if (!S_ISDIR(st.st_mode)) return " (" + folder.string() + " is not a folder)";
    if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return " (it is not a regular file)";
    struct statvfs fsStat {};
    if (access == SessionConnection::Access::ReadWrite && ::statvfs(folder.c_str(), &fsStat) == 0 && (fsStat.f_flag & ST_RDONLY))
        return " (" + folder.string() + " is on a read-only file system)";
    if (access == SessionConnection::Access::ReadWrite && ::access(folder.c_str(), W_OK) != 0)
        return " (the folder " + folder.string() + " is not writable for this user)";
    if (access == SessionConnection::Access::ReadWrite && ::access(file.c_str(), F_OK) == 0 && ::access(file.c_str(), W_OK) != 0)
        return " (the file is not writable for this user)";
    const std::string journal = file.string() + "-journal";
    if (::access(journal.c_str(), F_OK) == 0)
        return " (" + journal + " is the hot journal of a writer that was killed: open the session where it can be "
               "written once, so SQLite can roll it back)";
    return {};
}

constexpr int kBusyTimeoutMs = int(SessionConnection::kBusyTimeout.count());
// A checkpoint after a user's edit must not freeze the window behind a long background read: it
// waits this long at most, and whatever it could not copy yet is copied by the next one.
constexpr int kCheckpointBusyMs = 250;
// VM instructions between two looks at the clock: frequent enough to stop within milliseconds,
// rare enough to cost nothing measurable.
constexpr int kProgressOps = 1000;

std::atomic<int64_t> g_defaultLimitMs{60000};

int64_t steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What the first read of a file says about it, before anything is written.
struct Identity {
    int64_t applicationId = 0;
    int64_t userVersion = 0;
    int64_t objects = 0;     // rows in sqlite_schema
    int64_t coreTables = 0;  // of the tables every Stepscope session has had since schema version 1
};
constexpr int64_t kCoreTables = 6;

int readIdentity(sqlite3 *db, Identity &id, std::string &error) {
    static const char *const kSql =
        "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
        "(SELECT count(*) FROM sqlite_schema), (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
        "name IN ('meta', 'string', 'source', 'run', 'track', 'slice'))";
    sqlite3_stmt *st = nullptr;
    int rc = sqlite3_prepare_v2(db, kSql, -1, &st, nullptr);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            id = {sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                  sqlite3_column_int64(st, 3)};
            rc = SQLITE_OK;
        }
    }
    if (rc != SQLITE_OK) {
        rc = sqlite3_extended_errcode(db);
        error = sqlite3_errmsg(db);
    }
    sqlite3_finalize(st);
    return rc;
}

int64_t fileSize(const std::string &file) {
    std::error_code ec;
    const auto n = fs::file_size(file, ec);
    return ec ? -1 : int64_t(n);
}

std::string hex32(int64_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", unsigned(uint32_t(v)));
    return buf;
}

} // namespace

// Per-connection state of the statement limit. The trace and progress callbacks run on the thread
// that steps the statement; only the limit itself is read across threads.
struct SessionConnection::Guard {
    sqlite3 *db = nullptr;
    std::atomic<int64_t> limitMs{0};
    int64_t startNs = 0;  // 0: the statement that runs now has not looked at the clock yet
    int64_t lastNs = 0;   // the previous progress call
};

namespace {

// A statement starts (its first step): the next progress call takes the clock afresh. Trigger
// programs and statements nested in a user function trace their own text, not the statement's.
int onTrace(unsigned type, void *ctx, void *p, void *x) {
    if (type != SQLITE_TRACE_STMT) return 0;
    auto *guard = static_cast<SessionConnection::Guard *>(ctx);
    const char *sql = sqlite3_sql(static_cast<sqlite3_stmt *>(p));
    const char *traced = static_cast<const char *>(x);
    if (traced == sql || (sql && traced && std::strcmp(sql, traced) == 0)) {
        guard->startNs = 0;
        clearStatementStop(guard->db);
    }
    return 0;
}

int onProgress(void *ctx) {
    auto *guard = static_cast<SessionConnection::Guard *>(ctx);
    const int64_t limitMs = guard->limitMs.load(std::memory_order_relaxed);
    if (limitMs <= 0) return 0;
    const int64_t limitNs = limitMs * 1000000, now = steadyNs();
    // No SQLite work for longer than the limit means the connection sat idle (or the caller spent
    // that long between two steps): count from now, so only time spent inside SQLite is judged.
    if (guard->startNs == 0 || now - guard->lastNs > limitNs) guard->startNs = now;
    guard->lastNs = now;
    if (now - guard->startNs <= limitNs) return 0;
    noteStatementStopped(guard->db, limitMs);
    return 1;
}

void harden(sqlite3 *db, SessionConnection::Guard *guard) {
    distrustFileSql(db);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    guard->db = db;
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, onTrace, guard);
    sqlite3_progress_handler(db, kProgressOps, onProgress, guard);
}

} // namespace

namespace {
// The session files this process has open, with how many connections and whether one could write:
// when the last of them closes, a read-only connection that closed last leaves the -wal and -shm
// behind (only a connection that can write may checkpoint and remove them), so one is opened to do it
// -- after a writer, or after readers that found no -wal/-shm and left an empty -wal (the checkpoint
// then has nothing to write: the session's own file is not touched). SQLite removes the two files only
// when no other process has the session open.
struct OpenSessionFile {
    int connections = 0;
    bool writer = false;          // one of them could write
    bool hadSidecars = false;     // -wal or -shm was there before this process opened it
};
struct OpenSessionFiles {
    std::mutex mutex;
    std::map<std::string, OpenSessionFile> files;
};
OpenSessionFiles &openSessionFiles() {
    static OpenSessionFiles files;
    return files;
}

void tidyAfterLastClose(const std::string &path) {
    std::error_code ec;
    if (!fs::exists(path + "-wal", ec) && !fs::exists(path + "-shm", ec)) return;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 200);
        // The last connection to close in WAL mode checkpoints and removes -wal and -shm.
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
    }
    sqlite3_close_v2(db);
}
} // namespace

SessionConnection SessionConnection::open(const fs::path &file, Access access) {
    const std::string where = file.string();
    std::error_code sidecarError;  // before SQLite creates them for this connection
    const bool sidecarsBefore = fs::exists(where + "-wal", sidecarError) || fs::exists(where + "-shm", sidecarError);
    SessionConnection c;
    c.m_access = access;
    c.m_guard = std::make_unique<Guard>();
    c.m_guard->limitMs = g_defaultLimitMs.load();
    std::string error;
    const auto connect = [&](const std::string &name, int flags) {
        const int rc = sqlite3_open_v2(name.c_str(), &c.m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            error = c.m_db ? sqlite3_errmsg(c.m_db) : "out of memory";
            c.close();
            return rc;
        }
        try {
            harden(c.m_db, c.m_guard.get());
        } catch (const StoreError &e) {
            error = e.what();
            c.close();
            return SQLITE_ERROR;
        }
        return SQLITE_OK;
    };
    Identity id;
    int rc = connect(where, access == Access::ReadWrite ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY);
    if (rc == SQLITE_OK) rc = readIdentity(c.m_db, id, error);
    std::error_code ec;
    const int primary = rc & 0xff;
    if (access == Access::ReadOnly && (primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY) && fs::is_regular_file(file, ec)) {
        // A session in a folder that cannot hold the -shm file (a read-only share, a CD, another
        // user's folder) can still be read as an immutable file -- unless changes are still only
        // in its -wal, which immutable mode would not see.
        c.close();
        const std::string name = file.filename().string();
        if (const int64_t wal = fileSize(where + "-wal"); wal > 0)
            throw StoreError(where + ": cannot read the session here: its folder is not writable, so SQLite cannot create " +
                             name + "-shm, and " + std::to_string(wal) + " bytes of its latest changes are still only in " +
                             name + "-wal; open it once where the folder is writable (or copy both files elsewhere)");
        rc = connect(sqliteFileUri(file, "immutable=1"), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        c.m_immutable = rc == SQLITE_OK;
        if (rc == SQLITE_OK) rc = readIdentity(c.m_db, id, error);
    }
    if (rc != SQLITE_OK) {
        c.close();
        if ((rc & 0xff) == SQLITE_NOTADB) throw StoreError(where + ": not a Stepscope session (" + error + ")");
        if ((rc & 0xff) == SQLITE_CORRUPT) error += " (the session file is damaged)";
        if ((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) error += whyNotOpened(file, access);
        throw StoreError(where + ": cannot open session: " + error);
    }
    const bool ours = id.applicationId == kStepscopeApplicationId;
    const bool empty = id.applicationId == 0 && id.userVersion == 0 && id.objects == 0;
    const bool older = id.applicationId == 0 && id.userVersion >= 1 && id.coreTables == kCoreTables;
    if (!ours && !older && !(empty && access == Access::ReadWrite)) {
        c.close();
        if (empty) throw StoreError(where + ": not a Stepscope session (an empty database)");
        throw StoreError(where + ": not a Stepscope session (application_id " + hex32(id.applicationId) +
                         (id.applicationId == 0 ? ", without Stepscope's tables" : "") + "); refusing to " +
                         (access == Access::ReadWrite ? "modify" : "read") + " it");
    }
    if (!c.m_immutable) {
        if (const char *name = sqlite3_db_filename(c.m_db, "main"); name && *name) {
            c.m_file = name;
            OpenSessionFiles &open = openSessionFiles();
            std::lock_guard lock(open.mutex);
            OpenSessionFile &f = open.files[c.m_file];
            if (f.connections++ == 0) f.hadSidecars = sidecarsBefore;
            f.writer = f.writer || access == Access::ReadWrite;
        }
    }
    return c;
}

SessionConnection::SessionConnection() = default;

SessionConnection::~SessionConnection() { close(); }

SessionConnection::SessionConnection(SessionConnection &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_access(other.m_access), m_immutable(other.m_immutable),
      m_file(std::exchange(other.m_file, std::string())), m_guard(std::move(other.m_guard)) {}

SessionConnection &SessionConnection::operator=(SessionConnection &&other) noexcept {
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_file = std::exchange(other.m_file, std::string());
        m_access = other.m_access;
        m_immutable = other.m_immutable;
        m_guard = std::move(other.m_guard);
    }
    return *this;
}

void SessionConnection::close() {
    if (!m_db) return;
    clearStatementStop(m_db);
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    if (m_file.empty()) return;
    bool tidy = false;
    {
        OpenSessionFiles &open = openSessionFiles();
        std::lock_guard lock(open.mutex);
        const auto it = open.files.find(m_file);
        if (it != open.files.end() && --it->second.connections == 0) {
            std::error_code ec;
            tidy = it->second.writer || (!it->second.hadSidecars && fs::file_size(m_file + "-wal", ec) == 0 && !ec);
            open.files.erase(it);
        }
    }
    if (tidy) tidyAfterLastClose(m_file);
    m_file.clear();
}

int32_t SessionConnection::applicationId() const {
    SqliteStatement st(m_db, "PRAGMA application_id");
    return st.step() ? int32_t(st.columnInt(0)) : 0;
}

void SessionConnection::interrupt() {
    if (m_db) sqlite3_interrupt(m_db);
}

void SessionConnection::setBusyTimeout(std::chrono::milliseconds wait) {
    if (m_db) sqlite3_busy_timeout(m_db, int(wait.count()));
}

void SessionConnection::setStatementTimeLimit(std::chrono::milliseconds limit) {
    if (m_guard) m_guard->limitMs = int64_t(limit.count());
}

std::chrono::milliseconds SessionConnection::statementTimeLimit() const {
    return std::chrono::milliseconds(m_guard ? m_guard->limitMs.load() : 0);
}

void SessionConnection::setDefaultStatementTimeLimit(std::chrono::milliseconds limit) { g_defaultLimitMs = int64_t(limit.count()); }

std::chrono::milliseconds SessionConnection::defaultStatementTimeLimit() { return std::chrono::milliseconds(g_defaultLimitMs.load()); }

bool SessionConnection::checkpoint() {
    if (!m_db || m_access == Access::ReadOnly) return true;
    if (!sqlite3_get_autocommit(m_db)) return false;  // inside a transaction: its commit checkpoints
    sqlite3_busy_timeout(m_db, kCheckpointBusyMs);
    const int rc = sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    return rc == SQLITE_OK;
}

} // namespace stepscope

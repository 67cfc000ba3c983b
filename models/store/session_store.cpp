#include "models/store/session_store.h"

#include <QFile>

// Q_INIT_RESOURCE must be used outside any namespace; the store is a static library, so its
// resources are registered explicitly before first use.
static void initSchemaResource() { Q_INIT_RESOURCE(schema); }

namespace stepscope {

namespace {
std::string readResource(const char *path) {
    QFile f(QString::fromLatin1(path));
    if (!f.open(QIODevice::ReadOnly))
        throw StoreError(std::string("missing built-in schema resource ") + path);
    return f.readAll().toStdString();
}
} // namespace

const std::vector<Migration> &SessionStore::builtinMigrations() {
    static const std::vector<Migration> migrations = [] {
        initSchemaResource();
        return std::vector<Migration>{
            {1, readResource(":/schema/001_core.sql")},
            {2, readResource(":/schema/002_user_data.sql")},
            {3, readResource(":/schema/003_timeline_lod.sql")},
        };
    }();
    return migrations;
}

int SessionStore::latestSchemaVersion() { return builtinMigrations().back().version; }

SessionStore::SessionStore(const std::filesystem::path &file, Mode mode)
    : SessionStore(file, mode, builtinMigrations()) {}

SessionStore::SessionStore(const std::filesystem::path &file, Mode mode, const std::vector<Migration> &migrations)
    : m_path(file), m_mode(mode) {
    open(migrations);
}

SessionStore::~SessionStore() { sqlite3_close_v2(m_db); }

void SessionStore::open(const std::vector<Migration> &migrations) {
    const std::string where = m_path.string();
    const int flags = m_mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
                                               : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(where.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        const std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw StoreError(where + ": cannot open session: " + msg);
    }
    sqlite3_busy_timeout(m_db, 5000);
    sqlite3_extended_result_codes(m_db, 1);
    try {
        // A file that is not SQLite at all fails here, with SQLite's "file is not a database".
        const int version = schemaVersion();
        const int latest = migrations.empty() ? 0 : migrations.back().version;
        if (version > latest)
            throw StoreError("written by a newer Stepscope (schema version " + std::to_string(version) +
                             ", this build reads up to " + std::to_string(latest) + "); please upgrade Stepscope");
        if (m_mode == Mode::ReadWrite) {
            sqliteExec(m_db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
            migrate(migrations);
        } else {
            if (version < latest)
                throw StoreError("session uses schema version " + std::to_string(version) +
                                 "; open it once read-write to upgrade it to version " + std::to_string(latest));
            sqliteExec(m_db, "PRAGMA query_only=1;");
        }
    } catch (const StoreError &e) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        throw StoreError(where + ": " + e.what());
    }
}

int SessionStore::schemaVersion() const {
    SqliteStatement st(m_db, "PRAGMA user_version");
    return st.step() ? int(st.columnInt(0)) : 0;
}

void SessionStore::migrate(const std::vector<Migration> &migrations) {
    const int version = schemaVersion();
    for (const Migration &m : migrations) {
        if (m.version <= version) continue;
        // Each migration is all-or-nothing: a failure leaves the file at the previous version.
        sqliteExec(m_db, "BEGIN IMMEDIATE");
        try {
            sqliteExec(m_db, m.sql);
            sqliteExec(m_db, "PRAGMA user_version=" + std::to_string(m.version));
            sqliteExec(m_db, "COMMIT");
        } catch (const StoreError &e) {
            sqliteExec(m_db, "ROLLBACK");
            throw StoreError("migration to schema version " + std::to_string(m.version) + " failed: " + e.what());
        }
    }
}

std::string SessionStore::setting(const std::string &key, const std::string &fallback) const {
    SqliteStatement st(m_db, "SELECT value FROM session_setting WHERE key = ?1");
    st.bind(1, std::string_view(key));
    return st.step() ? st.columnText(0) : fallback;
}

void SessionStore::setSetting(const std::string &key, const std::string &value) {
    SqliteStatement st(m_db, "INSERT INTO session_setting(key, value) VALUES (?1, ?2) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    st.bind(1, std::string_view(key));
    st.bind(2, std::string_view(value));
    st.run();
}

int64_t SessionStore::clockOffsetNs(const std::string &sourcePath) const {
    SqliteStatement st(m_db, "SELECT clock_offset_ns FROM source_setting WHERE path = ?1");
    st.bind(1, std::string_view(sourcePath));
    return st.step() ? st.columnInt(0) : 0;
}

void SessionStore::setClockOffsetNs(const std::string &sourcePath, int64_t offsetNs) {
    SqliteStatement st(m_db, "INSERT INTO source_setting(path, clock_offset_ns) VALUES (?1, ?2) "
                             "ON CONFLICT(path) DO UPDATE SET clock_offset_ns = excluded.clock_offset_ns");
    st.bind(1, std::string_view(sourcePath));
    st.bind(2, offsetNs);
    st.run();
}

} // namespace stepscope

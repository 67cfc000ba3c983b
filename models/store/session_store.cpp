#include "models/store/session_store.h"

#include "models/store/import_log_code.h"
#include "models/store/ns_range.h"

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
            {4, readResource(":/schema/004_tool_verdict.sql")},
            {5, readResource(":/schema/005_step_source.sql")},
            {6, readResource(":/schema/006_derived_results.sql")},
            {7, readResource(":/schema/007_session_identity.sql")},
            {8, readResource(":/schema/008_slice_cost.sql")},
            {9, readResource(":/schema/009_import_log_code.sql")},
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

SessionStore::~SessionStore() {
    if (m_mode == Mode::ReadWrite) m_conn.checkpoint();
}

namespace {
int userVersion(sqlite3 *db) {
    SqliteStatement st(db, "PRAGMA user_version");
    return st.step() ? int(st.columnInt(0)) : 0;
}

void refuseNewer(int version, int latest) {
    if (version > latest)
        throw StoreError("written by a newer Stepscope (schema version " + std::to_string(version) +
                         ", this build reads up to " + std::to_string(latest) + "); please upgrade Stepscope");
}

// A read-only connection never repairs: it refuses a session whose Stepscope objects are not
// Stepscope's, so no foreign SQL runs. Foreign triggers cannot fire on it and are ignored; a
// missing index only makes reads slower.
void checkReadOnly(sqlite3 *db, const std::vector<Migration> &migrations) {
    const int version = userVersion(db);
    const int latest = migrations.empty() ? 0 : migrations.back().version;
    refuseNewer(version, latest);
    if (version < latest)
        throw StoreError("session uses schema version " + std::to_string(version) +
                         "; open it once read-write to upgrade it to version " + std::to_string(latest));
    const SchemaCheck check = SessionSchema::expected(migrations, latest)->check(db);
    std::string altered = check.altered.empty() ? std::string() : check.altered.front();
    if (altered.empty() && !check.changed.empty())
        altered = check.changed.front()->type + " " + check.changed.front()->name + " is not Stepscope's";
    for (const SchemaObject *e : check.missing)
        if (altered.empty() && e->type == "view") altered = "view " + e->name + " is missing";
    if (!altered.empty())
        throw StoreError("session was altered: " + altered +
                         "; refusing to read it (opening it read-write once restores Stepscope's views and indexes)");
    sqliteExec(db, "PRAGMA query_only=1");
}
} // namespace

SessionConnection SessionStore::openReadOnlyConnection(const std::filesystem::path &file) {
    SessionConnection conn = SessionConnection::open(file, SessionConnection::Access::ReadOnly);
    try {
        checkReadOnly(conn.db(), builtinMigrations());
    } catch (const StoreError &e) {
        throw StoreError(file.string() + ": " + e.what());
    }
    return conn;
}

namespace {
// A run's time base is added to every time the session's views give (v_slice, v_step, ...): one
// beyond ±2^62 ns (a tampered or damaged session; importers never write one) would overflow them
// into floating point. Such a session is refused, naming the run.
void checkTimeBases(sqlite3 *db) {
    SqliteStatement has(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run'");
    if (!has.step()) return;
    SqliteStatement st(db, "SELECT id, name, time_base_ns FROM run WHERE typeof(time_base_ns) != 'integer' "
                           "OR time_base_ns <= ?1 OR time_base_ns >= ?2 LIMIT 1");
    st.bind(1, -kTimeLimitNs);
    st.bind(2, kTimeLimitNs);
    if (st.step())
        throw StoreError("run " + std::to_string(st.columnInt(0)) + " ('" + st.columnText(1) + "') has the time base " +
                         st.columnText(2) + " ns, beyond ±2^62 ns: the session was altered or is damaged; re-import its traces");
    // Steps are few (one row per training step): each is checked, as importers write them, to have a
    // whole-number start within ±2^62 ns and a duration from 0 to 2^62 ns.
    SqliteStatement steps(db, "SELECT run_id, step, start_ns, dur_ns FROM step WHERE typeof(start_ns) != 'integer' "
                              "OR typeof(dur_ns) != 'integer' OR start_ns <= ?1 OR start_ns >= ?2 OR dur_ns < 0 OR dur_ns >= ?2 LIMIT 1");
    steps.bind(1, -kTimeLimitNs);
    steps.bind(2, kTimeLimitNs);
    if (steps.step())
        throw StoreError("run " + std::to_string(steps.columnInt(0)) + ", step " + steps.columnText(1) + " starts at " +
                         steps.columnText(2) + " ns and lasts " + steps.columnText(3) +
                         " ns (a step lasts 0 to 2^62 ns): the session was altered or is damaged; re-import its traces");
}
} // namespace

void SessionStore::open(const std::vector<Migration> &migrations) {
    const std::string where = m_path.string();
    // Throws "<file>: ..." itself; refuses files that are not Stepscope sessions before any write.
    m_conn = SessionConnection::open(m_path, m_mode == Mode::ReadOnly ? SessionConnection::Access::ReadOnly
                                                                     : SessionConnection::Access::ReadWrite);
    try {
        if (m_mode == Mode::ReadWrite) openReadWrite(migrations);
        else checkReadOnly(db(), migrations);
        checkTimeBases(db());
    } catch (const StoreError &e) {
        m_conn = SessionConnection();
        const std::string what = e.what();
        throw StoreError(what.rfind(where + ": ", 0) == 0 ? what : where + ": " + what);
    }
}

void SessionStore::openReadWrite(const std::vector<Migration> &migrations) {
    const int version = schemaVersion();
    const int latest = migrations.empty() ? 0 : migrations.back().version;
    refuseNewer(version, latest);
    // Checked before the first write, so a refused file is left exactly as it was.
    const SchemaCheck before = SessionSchema::expected(migrations, version)->check(db());
    if (!before.altered.empty())
        throw StoreError("session was altered: " + before.altered.front() + "; refusing to modify it");
    sqliteExec(db(), "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
    repair(before);
    migrate(migrations);
    if (version < latest) {
        const SchemaCheck after = SessionSchema::expected(migrations, latest)->check(db());
        if (!after.altered.empty())
            throw StoreError("session was altered: " + after.altered.front() + "; refusing to modify it");
        repair(after);
    }
    // Stamped on new sessions and on older ones at their first read-write open.
    if (m_conn.applicationId() != kStepscopeApplicationId)
        sqliteExec(db(), "PRAGMA application_id=" + std::to_string(kStepscopeApplicationId));
}

void SessionStore::repair(const SchemaCheck &check) {
    if (check.triggers.empty() && check.changed.empty() && check.missing.empty()) return;
    sqliteExec(db(), "BEGIN IMMEDIATE");
    try {
        const std::vector<std::string> done = SessionSchema::repair(db(), check);
        if (schemaVersion() >= 1) {
            // Said where the user looks for what happened to their files; kept across re-imports.
            // The code column exists from schema version 9; a repair before the migrations (an
            // older session) writes the row without it, and the migration gives it the empty code.
            const bool coded = schemaVersion() >= 9;
            SqliteStatement log(db(), coded ? "INSERT INTO import_log(source_id, severity, file, position, message, code) "
                                              "VALUES (NULL, 'warning', ?1, '', ?2, ?3)"
                                            : "INSERT INTO import_log(source_id, severity, file, position, message) "
                                              "VALUES (NULL, 'warning', ?1, '', ?2)");
            for (const std::string &line : done) {
                log.bind(1, std::string_view(m_path.string()));
                log.bind(2, std::string_view(line));
                if (coded) log.bind(3, importLogCodeName(ImportLogCode::SessionRepaired));
                log.run();
            }
        }
        sqliteExec(db(), "COMMIT");
        m_openWarnings.insert(m_openWarnings.end(), done.begin(), done.end());
    } catch (const StoreError &) {
        sqliteExec(db(), "ROLLBACK");
        throw;
    }
}

int SessionStore::schemaVersion() const { return userVersion(db()); }

void SessionStore::migrate(const std::vector<Migration> &migrations) {
    const int version = schemaVersion();
    for (const Migration &m : migrations) {
        if (m.version <= version) continue;
        // Each migration is all-or-nothing: a failure leaves the file at the previous version.
        sqliteExec(db(), "BEGIN IMMEDIATE");
        try {
            sqliteExec(db(), m.sql);
            sqliteExec(db(), "PRAGMA user_version=" + std::to_string(m.version));
            sqliteExec(db(), "COMMIT");
        } catch (const StoreError &e) {
            sqliteExec(db(), "ROLLBACK");
            throw StoreError("migration to schema version " + std::to_string(m.version) + " failed: " + e.what());
        }
    }
}

std::string SessionStore::setting(const std::string &key, const std::string &fallback) const {
    SqliteStatement st(db(), "SELECT value FROM session_setting WHERE key = ?1");
    st.bind(1, std::string_view(key));
    return st.step() ? st.columnText(0) : fallback;
}

void SessionStore::setSetting(const std::string &key, const std::string &value) {
    SqliteStatement st(db(), "INSERT INTO session_setting(key, value) VALUES (?1, ?2) "
                             "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    st.bind(1, std::string_view(key));
    st.bind(2, std::string_view(value));
    st.run();
    checkpoint();
}

void SessionStore::writeTransaction(const std::function<void()> &body, std::chrono::milliseconds busyWait) {
    if (m_mode == Mode::ReadOnly) throw StoreError(m_path.string() + ": opened read-only");
    m_conn.setBusyTimeout(busyWait);
    try {
        sqliteExec(db(), "BEGIN IMMEDIATE");
    } catch (const StoreError &) {
        m_conn.setBusyTimeout(SessionConnection::kBusyTimeout);
        throw;
    }
    m_conn.setBusyTimeout(SessionConnection::kBusyTimeout);
    try {
        body();
        sqliteExec(db(), "COMMIT");
    } catch (...) {
        sqliteExec(db(), "ROLLBACK");
        throw;
    }
    checkpoint();
}

int64_t SessionStore::clockOffsetNs(const std::string &sourcePath) const {
    SqliteStatement st(db(), "SELECT clock_offset_ns FROM source_setting WHERE path = ?1");
    st.bind(1, std::string_view(sourcePath));
    return st.step() ? st.columnInt(0) : 0;
}

void SessionStore::setClockOffsetNs(const std::string &sourcePath, int64_t offsetNs) {
    SqliteStatement st(db(), "INSERT INTO source_setting(path, clock_offset_ns) VALUES (?1, ?2) "
                             "ON CONFLICT(path) DO UPDATE SET clock_offset_ns = excluded.clock_offset_ns");
    st.bind(1, std::string_view(sourcePath));
    st.bind(2, offsetNs);
    st.run();
    checkpoint();
}

void SessionStore::saveCopyTo(const std::filesystem::path &target) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::equivalent(target, m_path, ec))
        throw StoreError(target.string() + ": is the session itself; choose another file to save a copy to");
    const fs::path partial = target.string() + ".partial";
    fs::remove(partial, ec);
    try {
        SqliteStatement st(db(), "VACUUM INTO ?1");
        st.bind(1, std::string_view(partial.string()));
        st.run();
    } catch (const StoreError &e) {
        fs::remove(partial, ec);
        throw StoreError(target.string() + ": cannot save a copy: " + e.what());
    }
    fs::rename(partial, target, ec);
    if (ec) {
        fs::remove(partial, ec);
        throw StoreError(target.string() + ": cannot save a copy: " + ec.message());
    }
}

} // namespace stepscope

#include "models/store/session_schema.h"

#include "models/text/ascii_case.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <unordered_map>

namespace stepscope {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = asciiLower(c);
    return out;
}

std::string quoted(const std::string &name) {
    std::string out = "\"";
    for (char c : name) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

bool isWordChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80 || c == '"' || c == '\'' || c == '`' || c == ']';
}

} // namespace

std::string SessionSchema::normalise(std::string_view sql) {
    std::string out;
    out.reserve(sql.size());
    bool space = false;
    for (size_t i = 0; i < sql.size();) {
        const char c = sql[i];
        if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
            i = sql.find('\n', i);
            i = i == std::string_view::npos ? sql.size() : i + 1;
            space = true;
        } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
            i = sql.find("*/", i + 2);
            i = i == std::string_view::npos ? sql.size() : i + 2;
            space = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            space = true;
        } else {
            const bool quote = c == '\'' || c == '"' || c == '`' || c == '[';
            if (space && !out.empty() && isWordChar(out.back()) && (isWordChar(c) || quote)) out += ' ';
            space = false;
            if (!quote) {
                out += asciiLower(c);
                ++i;
                continue;
            }
            // Quoted text and names keep their exact spelling; a doubled quote stays inside.
            const char close = c == '[' ? ']' : c;
            size_t j = i + 1;
            for (; j < sql.size(); ++j) {
                if (sql[j] != close) continue;
                if (close != ']' && j + 1 < sql.size() && sql[j + 1] == close) { ++j; continue; }
                break;
            }
            j = std::min(j + 1, sql.size());
            out.append(sql.substr(i, j - i));
            i = j;
        }
    }
    return out;
}

SessionSchema::SessionSchema(const std::vector<Migration> &migrations, int version) {
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        throw StoreError("cannot build the expected session schema: out of memory");
    }
    struct Closer { sqlite3 *db; ~Closer() { sqlite3_close(db); } } closer{db};
    for (const Migration &m : migrations)
        if (m.version <= version) sqliteExec(db, m.sql);
    SqliteStatement st(db, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND type IN ('table', 'index', 'view') "
                           "ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid");
    while (st.step()) {
        const std::string sql = st.columnText(2);
        m_objects.push_back({st.columnText(0), st.columnText(1), sql, normalise(sql)});
    }
}

std::shared_ptr<const SessionSchema> SessionSchema::expected(const std::vector<Migration> &migrations, int version) {
    // Keyed by the migrations' text itself, so a test's own migration list never meets the cache of
    // the built-in one.
    std::string key = std::to_string(version);
    for (const Migration &m : migrations)
        if (m.version <= version) key += '\0' + m.sql;
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const SessionSchema>> cache;
    {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(key); it != cache.end()) return it->second;
    }
    auto schema = std::make_shared<const SessionSchema>(migrations, version);
    std::lock_guard lock(mutex);
    return cache.emplace(std::move(key), std::move(schema)).first->second;
}

SchemaCheck SessionSchema::check(sqlite3 *db) const {
    struct Actual { std::string type, name, sql; };
    std::unordered_map<std::string, Actual> actual;  // by lower-case name: SQLite names ignore case
    SchemaCheck out;
    SqliteStatement st(db, "SELECT type, name, sql FROM sqlite_schema");
    while (st.step()) {
        Actual a{st.columnText(0), st.columnText(1), st.columnText(2)};
        if (a.type == "trigger") out.triggers.push_back(a.name);
        actual.emplace(lower(a.name), std::move(a));
    }
    for (const SchemaObject &e : m_objects) {
        const auto it = actual.find(lower(e.name));
        const bool derived = e.type != "table";  // views and indexes can be rebuilt from the tables
        if (it == actual.end()) {
            if (derived) out.missing.push_back(&e);
            else out.altered.push_back("table " + e.name + " is missing");
        } else if (it->second.type != e.type) {
            out.altered.push_back(e.name + " is a " + it->second.type + ", not Stepscope's " + e.type);
        } else if (normalise(it->second.sql) != e.normalisedSql) {
            if (derived) out.changed.push_back(&e);
            else out.altered.push_back("table " + e.name + " is not Stepscope's (its definition was changed)");
        }
    }
    return out;
}

std::vector<std::string> SessionSchema::repair(sqlite3 *db, const SchemaCheck &check) {
    std::vector<std::string> done;
    for (const std::string &t : check.triggers) {
        sqliteExec(db, "DROP TRIGGER IF EXISTS " + quoted(t));
        done.push_back("removed trigger " + t + ": Stepscope never runs SQL that a session carries");
    }
    for (const SchemaObject *e : check.changed)
        sqliteExec(db, (e->type == "view" ? "DROP VIEW " : "DROP INDEX ") + quoted(e->name));
    // Re-created in the migrations' order, so that indexes come before the views.
    std::vector<const SchemaObject *> create = check.changed;
    create.insert(create.end(), check.missing.begin(), check.missing.end());
    std::sort(create.begin(), create.end());
    for (const SchemaObject *e : create) {
        sqliteExec(db, e->sql);
        const bool wasChanged = std::find(check.changed.begin(), check.changed.end(), e) != check.changed.end();
        done.push_back("restored " + e->type + " " + e->name +
                       (wasChanged ? ": the session's copy was not Stepscope's" : ": it was missing"));
    }
    return done;
}

} // namespace stepscope

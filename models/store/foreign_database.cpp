#include "models/store/foreign_database.h"

#include <cstring>
#include <fstream>
#include <utility>

namespace stepscope {
namespace {

constexpr int kForeignBusyTimeoutMs = 2000;
constexpr std::string_view kMagic("SQLite format 3\0", 16);

// Byte 18 of the database header: 1 = rollback journal, 2 = WAL.
bool walMode(const std::filesystem::path &file) {
    std::ifstream in(file, std::ios::binary);
    char header[20] = {};
    in.read(header, sizeof header);
    return in.gcount() == sizeof header && header[18] == 2;
}

std::string reasonFor(int code) {
    const int primary = code & 0xff;
    const std::string text = sqlite3_errstr(code);
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        return "locked by another process (still being written?): " + text;
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
        return "damaged (" + text + ")";
    return text;
}

} // namespace

std::string ForeignDatabase::lastErrorReason() const {
    return m_db ? reasonFor(sqlite3_extended_errcode(m_db)) : std::string("not open");
}

bool ForeignDatabase::looksLikeSqlite(std::string_view head) { return head.substr(0, kMagic.size()) == kMagic; }

ForeignDatabase ForeignDatabase::open(const std::filesystem::path &file, Mode mode) {
    ForeignDatabase d;
    d.m_file = file.string();
    int flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    std::string uri;
    if (mode == Mode::Create) {
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        uri = sqliteFileUri(file, "mode=rwc");
    } else {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec))
            throw StoreError(d.m_file + ": " + (ec || !std::filesystem::exists(file, ec) ? "no such file" : "not a regular file"));
        d.m_immutable = walMode(file);
        flags |= SQLITE_OPEN_READONLY;
        uri = sqliteFileUri(file, d.m_immutable ? "immutable=1" : "mode=ro");
    }
    const int rc = sqlite3_open_v2(uri.c_str(), &d.m_db, flags, nullptr);
    if (rc != SQLITE_OK)
        throw StoreError(d.m_file + ": cannot open: " + (d.m_db ? sqliteErrorMessage(d.m_db, rc) : "out of memory"));
    try {
        distrustFileSql(d.m_db);
        sqlite3_busy_timeout(d.m_db, kForeignBusyTimeoutMs);
        SqliteStatement st(d.m_db, "SELECT name FROM sqlite_master WHERE type = 'table'");
        while (st.step())
            d.m_tables.insert(st.columnText(0));
    } catch (const StoreError &) {
        throw StoreError(d.m_file + ": " + d.lastErrorReason());
    }
    return d;
}

std::set<std::string> ForeignDatabase::columns(const std::string &table) const {
    std::set<std::string> out;
    if (!hasTable(table))
        return out;
    SqliteStatement st(m_db, "SELECT name FROM pragma_table_info(?1)");
    st.bind(1, std::string_view(table));
    while (st.step())
        out.insert(st.columnText(0));
    return out;
}

ForeignDatabase::~ForeignDatabase() { close(); }

ForeignDatabase::ForeignDatabase(ForeignDatabase &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_file(std::move(other.m_file)), m_immutable(other.m_immutable),
      m_tables(std::move(other.m_tables)) {}

ForeignDatabase &ForeignDatabase::operator=(ForeignDatabase &&other) noexcept {
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_file = std::move(other.m_file);
        m_immutable = other.m_immutable;
        m_tables = std::move(other.m_tables);
    }
    return *this;
}

void ForeignDatabase::close() {
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
}

} // namespace stepscope

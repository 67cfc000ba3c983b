#include "models/store/foreign_database.h"

#include <cerrno>
#include <cstdlib>
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

// A private folder in TMPDIR holding a copy of `file` and its -wal; throws naming the file and why.
std::filesystem::path copyWithWal(const std::filesystem::path &file, const std::filesystem::path &wal, std::filesystem::path &copy) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    if (ec) throw StoreError(file.string() + ": its -wal holds rows not yet in the file, and no temporary folder to read them in: " + ec.message());
    std::string name = tmp / "stepscope-export-XXXXXX";
    if (!::mkdtemp(name.data()))
        throw StoreError(file.string() + ": its -wal holds rows not yet in the file, and no scratch folder could be made in " +
                         tmp.string() + ": " + std::strerror(errno));
    const fs::path folder = name;
    copy = folder / "export.sqlite";
    fs::copy_file(file, copy, ec);
    if (!ec) fs::copy_file(wal, copy.string() + "-wal", ec);
    if (ec) {
        std::error_code ignored;
        fs::remove_all(folder, ignored);
        throw StoreError(file.string() + ": its -wal holds rows not yet in the file, and copying the two to " + tmp.string() +
                         " to read them failed: " + ec.message() + " (free space there, or set TMPDIR)");
    }
    return folder;
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
        const std::filesystem::path wal = file.string() + "-wal";
        if (d.m_immutable && std::filesystem::is_regular_file(wal, ec) && std::filesystem::file_size(wal, ec) > 0 && !ec) {
            // immutable=1 would ignore the -wal's rows: read a copy of the pair, which SQLite may
            // recover and checkpoint as it likes.
            std::filesystem::path copy;
            d.m_scratch = copyWithWal(file, wal, copy);
            d.m_immutable = false;
            flags |= SQLITE_OPEN_READWRITE;
            uri = sqliteFileUri(copy, "mode=rw");
        } else {
            flags |= SQLITE_OPEN_READONLY;
            uri = sqliteFileUri(file, d.m_immutable ? "immutable=1" : "mode=ro");
        }
    }
    const int rc = sqlite3_open_v2(uri.c_str(), &d.m_db, flags, nullptr);
    if (rc == SQLITE_OK && d.readThroughCopy()) sqlite3_exec(d.m_db, "PRAGMA query_only = 1", nullptr, nullptr, nullptr);
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
      m_tables(std::move(other.m_tables)), m_scratch(std::exchange(other.m_scratch, {})) {}

ForeignDatabase &ForeignDatabase::operator=(ForeignDatabase &&other) noexcept {
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_file = std::move(other.m_file);
        m_immutable = other.m_immutable;
        m_tables = std::move(other.m_tables);
        m_scratch = std::exchange(other.m_scratch, {});
    }
    return *this;
}

void ForeignDatabase::close() {
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
    if (!m_scratch.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(m_scratch, ignored);
        m_scratch.clear();
    }
}

} // namespace stepscope

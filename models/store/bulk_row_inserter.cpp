#include "models/store/bulk_row_inserter.h"

#include "models/store/sqlite_statement.h"

#include <sqlite3.h>

namespace stepscope {
namespace {

// The virtual table over BulkRowInserter::current(): one row per batch row, scanned in order.
struct BatchTable {
    sqlite3_vtab base{};
    const BulkRowInserter *owner = nullptr;
};

struct BatchCursor {
    sqlite3_vtab_cursor base{};
    const RowBatch *batch = nullptr;
    size_t row = 0;
};

int batchConnect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out, char **) {
    auto *owner = static_cast<const BulkRowInserter *>(aux);
    std::string schema = "CREATE TABLE x(";
    for (int c = 0; c < owner->columns(); ++c)
        schema += (c ? ",c" : "c") + std::to_string(c);
    schema += ")";
    if (const int rc = sqlite3_declare_vtab(db, schema.c_str()); rc != SQLITE_OK)
        return rc;
    auto *table = new BatchTable;
    table->owner = owner;
    *out = &table->base;
    return SQLITE_OK;
}

int batchDisconnect(sqlite3_vtab *vtab) {
    delete reinterpret_cast<BatchTable *>(vtab);
    return SQLITE_OK;
}

int batchBestIndex(sqlite3_vtab *, sqlite3_index_info *info) {
    info->estimatedCost = 1e6;  // one full scan, no constraints used
    return SQLITE_OK;
}

int batchOpen(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out) {
    auto *cursor = new BatchCursor;
    cursor->batch = reinterpret_cast<BatchTable *>(vtab)->owner->current();
    *out = &cursor->base;
    return SQLITE_OK;
}

int batchClose(sqlite3_vtab_cursor *cursor) {
    delete reinterpret_cast<BatchCursor *>(cursor);
    return SQLITE_OK;
}

int batchFilter(sqlite3_vtab_cursor *cursor, int, const char *, int, sqlite3_value **) {
    reinterpret_cast<BatchCursor *>(cursor)->row = 0;
    return SQLITE_OK;
}

int batchNext(sqlite3_vtab_cursor *cursor) {
    ++reinterpret_cast<BatchCursor *>(cursor)->row;
    return SQLITE_OK;
}

int batchEof(sqlite3_vtab_cursor *cursor) {
    const auto *c = reinterpret_cast<BatchCursor *>(cursor);
    return !c->batch || c->row >= c->batch->rows();
}

int batchColumn(sqlite3_vtab_cursor *cursor, sqlite3_context *ctx, int column) {
    const auto *c = reinterpret_cast<BatchCursor *>(cursor);
    const RowBatch &b = *c->batch;
    if (b.isNull(c->row, column)) {
        sqlite3_result_null(ctx);
    } else if (column < b.intColumns()) {
        sqlite3_result_int64(ctx, b.value(c->row, column));
    } else {
        const std::string_view text = b.text(c->row);
        sqlite3_result_text(ctx, text.data(), int(text.size()), SQLITE_STATIC);  // batch outlives the step
    }
    return SQLITE_OK;
}

int batchRowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    *rowid = sqlite3_int64(reinterpret_cast<BatchCursor *>(cursor)->row);
    return SQLITE_OK;
}

const sqlite3_module kBatchModule = [] {
    sqlite3_module m{};
    m.iVersion = 0;
    m.xCreate = nullptr;  // eponymous-only: usable by name, never CREATE VIRTUAL TABLE
    m.xConnect = batchConnect;
    m.xBestIndex = batchBestIndex;
    m.xDisconnect = batchDisconnect;
    m.xDestroy = batchDisconnect;
    m.xOpen = batchOpen;
    m.xClose = batchClose;
    m.xFilter = batchFilter;
    m.xNext = batchNext;
    m.xEof = batchEof;
    m.xColumn = batchColumn;
    m.xRowid = batchRowid;
    return m;
}();

[[noreturn]] void fail(sqlite3 *db, const std::string &what) {
    throw StoreError(what + ": " + sqlite3_errmsg(db));
}

} // namespace

BulkRowInserter::BulkRowInserter(sqlite3 *db, std::string module, std::string_view table,
                                 const std::vector<std::string> &columns)
    : m_db(db), m_module(std::move(module)), m_columns(int(columns.size())) {
    if (m_columns > RowBatch::kMaxColumns)
        throw StoreError("bulk insert: too many columns");
    if (sqlite3_create_module_v2(db, m_module.c_str(), &kBatchModule, this, nullptr) != SQLITE_OK)
        fail(db, "bulk insert: registering " + m_module);
    std::string sql = "INSERT INTO " + std::string(table) + "(";
    std::string select;
    for (int c = 0; c < m_columns; ++c) {
        sql += (c ? "," : "") + columns[size_t(c)];
        select += (c ? ",c" : "c") + std::to_string(c);
    }
    sql += ") SELECT " + select + " FROM " + m_module;
    if (sqlite3_prepare_v3(db, sql.c_str(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_insert, nullptr) != SQLITE_OK) {
        const std::string message = "bulk insert: preparing " + sql + ": " + sqlite3_errmsg(db);
        sqlite3_create_module_v2(db, m_module.c_str(), nullptr, nullptr, nullptr);
        throw StoreError(message);
    }
}

BulkRowInserter::~BulkRowInserter() {
    sqlite3_finalize(m_insert);
    sqlite3_create_module_v2(m_db, m_module.c_str(), nullptr, nullptr, nullptr);  // drops the module
}

void BulkRowInserter::insert(const RowBatch &batch) {
    if (batch.empty())
        return;
    if (batch.intColumns() + (batch.hasTextColumn() ? 1 : 0) != m_columns)
        throw StoreError("bulk insert: batch does not match the columns");
    m_current = &batch;
    const int rc = sqlite3_step(m_insert);
    m_current = nullptr;
    if (rc != SQLITE_DONE) {
        const std::string message = "bulk insert from " + m_module + ": " + sqlite3_errmsg(m_db);
        sqlite3_reset(m_insert);
        throw StoreError(message);
    }
    sqlite3_reset(m_insert);
}

} // namespace stepscope

#pragma once
// BulkRowInserter writes a whole RowBatch into a table with one statement step: the batch is
// exposed to SQLite as an eponymous virtual table and copied with INSERT INTO t(...) SELECT ...
// FROM it, in batch order (so rowids come out as they would from one INSERT per row). This skips
// the per-row bind / step / reset calls, each of which takes the connection's mutex, which cost
// about as much as the B-tree work for narrow rows. Columns are int64 (NULL where flagged), the
// last one optionally text. Importers get one from SessionWriter::bulkInserter (TraceEventWriter
// for slices and flows, whose RowBatches are filled on another thread while the previous one is
// being inserted).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace stepscope {

class RowBatch {
public:
    static constexpr int kMaxColumns = 32;

    RowBatch() = default;
    RowBatch(int intColumns, bool textColumn) : m_intColumns(intColumns), m_textColumn(textColumn) {}

    // Empties the batch (keeping its storage) for rows of this shape.
    void reset(int intColumns, bool textColumn) {
        clear();
        m_intColumns = intColumns;
        m_textColumn = textColumn;
    }

    int intColumns() const { return m_intColumns; }
    bool hasTextColumn() const { return m_textColumn; }
    size_t rows() const { return m_nulls.size(); }
    bool empty() const { return m_nulls.empty(); }
    void clear() {
        m_values.clear();
        m_nulls.clear();
        m_textEnd.clear();
        m_text.clear();
    }

    // Appends a row: `values` holds intColumns() numbers; bit c of `nullMask` makes column c NULL
    // (bit intColumns() the text column). `text` is ignored without a text column.
    void add(const int64_t *values, uint32_t nullMask, std::string_view text = {}) {
        m_values.insert(m_values.end(), values, values + m_intColumns);
        m_nulls.push_back(nullMask);
        if (m_textColumn) {
            m_text.append(text);
            m_textEnd.push_back(m_text.size());
        }
    }

    int64_t value(size_t row, int column) const { return m_values[row * size_t(m_intColumns) + size_t(column)]; }
    bool isNull(size_t row, int column) const { return (m_nulls[row] >> column) & 1u; }
    std::string_view text(size_t row) const {
        const size_t begin = row == 0 ? 0 : m_textEnd[row - 1];
        return std::string_view(m_text).substr(begin, m_textEnd[row] - begin);
    }

private:
    int m_intColumns = 0;
    bool m_textColumn = false;
    std::vector<int64_t> m_values;  // row-major
    std::vector<uint32_t> m_nulls;
    std::vector<size_t> m_textEnd;
    std::string m_text;
};

class BulkRowInserter {
public:
    // `table` gets the columns `columns` (int64 ones first, then the text one if the batches have
    // it). `module` must be a name no other code registers on this connection.
    BulkRowInserter(sqlite3 *db, std::string module, std::string_view table, const std::vector<std::string> &columns);
    ~BulkRowInserter();
    BulkRowInserter(const BulkRowInserter &) = delete;
    BulkRowInserter &operator=(const BulkRowInserter &) = delete;

    // Inserts every row of `batch`, in order. Throws StoreError when SQLite fails.
    void insert(const RowBatch &batch);

    // Exposed for the virtual table callbacks.
    const RowBatch *current() const { return m_current; }
    int columns() const { return m_columns; }

private:
    sqlite3 *m_db;
    std::string m_module;
    int m_columns;
    sqlite3_stmt *m_insert = nullptr;
    const RowBatch *m_current = nullptr;
};

} // namespace stepscope

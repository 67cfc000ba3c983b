#pragma once
// NvidiaSmiCsvParser tokenizes `nvidia-smi --query-gpu=... --format=csv[,nounits]` output (pure C++,
// no store): it reads the `timestamp, ...` header (units in brackets), maps query keys to the
// canonical series names of v_metric, and turns each data row into a time, a GPU device number
// (from `index`, else the order in which each uuid / pci.bus_id first appears) and one optional
// value per column (N/A, [N/A], [Not Supported] -> no value). Used by NvidiaSmiCsvImporter and tests.

#include "importers/metrics/metric_text.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

class NvidiaSmiCsvParser {
public:
    enum class Role { Time, Index, GpuKey, Text, Value };
    struct Column {
        std::string key;     // query key as in the header, e.g. "memory.used"
        std::string series;  // series name in the store, e.g. "gpu_mem_used"
        std::string unit;    // unit stored with the series, e.g. "B"
        double scale = 1.0;  // value multiplier (MiB -> bytes)
        Role role = Role::Value;
        bool sawNumber = false;
    };
    struct Row {
        int64_t tNs = 0;
        int64_t device = 0;
        std::vector<std::optional<double>> values;  // one per column (Value columns only set)
    };

    // True when `line` is a query-gpu header (first field "timestamp", ", " separated).
    static bool isHeader(std::string_view line);
    // Replaces the column layout; false when the line is not a header.
    bool parseHeader(std::string_view line);
    bool hasHeader() const { return !m_columns.empty(); }
    const std::vector<Column> &columns() const { return m_columns; }

    // Parses one data row. On failure returns false with `error` set (the row is skipped); on
    // success `problems` lists fields that held something that is not a number (no value).
    bool parseRow(std::string_view line, Row &row, std::string &error, std::vector<std::string> &problems);

private:
    std::vector<Column> m_columns;
    int m_timeCol = -1, m_indexCol = -1, m_keyCol = -1;
    std::map<std::string, int64_t> m_keyOrder;  // uuid / bus id -> device number
    CivilTimeConverter m_time;
    std::vector<std::string_view> m_fields;
};

} // namespace stepscope::metrics

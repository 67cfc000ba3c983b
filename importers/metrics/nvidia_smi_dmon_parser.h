#pragma once
// NvidiaSmiDmonParser tokenizes `nvidia-smi dmon` text (pure C++, no store): a `# gpu pwr gtemp
// ...` names line and a `# Idx W C ...` units line (repeated every so often), then whitespace
// columns per GPU; `-o DT` adds Date (YYYYMMDD) and Time columns in local time. `-` means no value.
// Without timestamps the rows are numbered as samples (a new sample when a GPU repeats); the
// importer places them 1 s apart. sm -> gpu_util, mem -> gpu_mem_util, fb -> gpu_mem_used (bytes);
// other columns keep their names. Used by NvidiaSmiDmonImporter and tests.

#include "importers/metrics/metric_text.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

class NvidiaSmiDmonParser {
public:
    struct Column {
        std::string tag, series, unit;
        double scale = 1.0;
    };
    struct Row {
        int64_t device = 0;
        std::optional<int64_t> tNs;  // when the log has Date and Time
        int64_t sample = 0;          // running sample number
        std::vector<std::optional<double>> values;  // per column; nullopt for gpu/Date/Time
    };
    enum class Result { Row, Header, Ignored, Bad };

    static bool looksLikeDmon(std::string_view head);
    Result parseLine(std::string_view line, Row &row, std::string &error);
    const std::vector<Column> &columns() const { return m_columns; }
    bool hasTimestamps() const { return m_dateCol >= 0 && m_timeCol >= 0; }

private:
    void setNames(const std::vector<std::string_view> &names);
    void setUnits(const std::vector<std::string_view> &units);

    std::vector<Column> m_columns;
    int m_gpuCol = -1, m_dateCol = -1, m_timeCol = -1;
    bool m_expectUnits = false;
    SampleCounter m_counter;
    CivilTimeConverter m_conv;
    std::vector<std::string_view> m_tokens;
};

} // namespace stepscope::metrics

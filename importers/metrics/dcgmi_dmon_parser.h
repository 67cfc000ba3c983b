#pragma once
// DcgmiDmonParser tokenizes `dcgmi dmon` fixed-width text (pure C++, no store): a `#Entity TAG ...`
// header (repeated every so often), an `ID` line, then rows `GPU 0  0.998 ...`; `N/A` is no value;
// no timestamps, so rows are numbered as samples (a new sample when a GPU repeats). Field tags map
// to v_metric names: GPUTL -> gpu_util, MCUTL -> gpu_mem_util, FBUSD -> gpu_mem_used (bytes),
// GRACT -> gpu_util in % when there is no GPUTL; other tags keep their names. Rows of non-GPU
// entities (GPU-I, CPU, switches) are skipped. Used by DcgmiDmonImporter and tests.

#include "importers/metrics/metric_text.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

class DcgmiDmonParser {
public:
    struct Column {
        std::string tag, series, unit;
        double scale = 1.0;
    };
    struct Row {
        int64_t device = 0;
        int64_t sample = 0;
        std::vector<std::optional<double>> values;  // per column
    };
    enum class Result { Row, Header, Ignored, Skipped, Bad };

    static bool looksLikeDcgmi(std::string_view head) { return startsWith(trim(head), "#Entity"); }
    Result parseLine(std::string_view line, Row &row, std::string &error);
    const std::vector<Column> &columns() const { return m_columns; }

private:
    std::vector<Column> m_columns;
    SampleCounter m_counter;
    std::vector<std::string_view> m_tokens;
};

} // namespace stepscope::metrics

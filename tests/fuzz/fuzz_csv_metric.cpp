// libFuzzer target: CsvMetricParser, the tokenizer of generic metric CSV and CloudWatch exports:
// the sniff over the head, the header, then every row; the first byte picks zone-less UTC
// (CloudWatch) or local time (generic). Checks: no crash/UB/leak; rows carry one slot per column.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/csv_metric_parser.h"

#include <cstdlib>

namespace stepscope::fuzz::csv_metric {

inline void run(const uint8_t *data, size_t size) {
    if (size == 0) return;
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    metrics::CsvMetricParser::looksLikeMetricCsv(text.substr(0, 8192));
    metrics::CsvMetricParser parser;
    parser.setZonelessUtc(data[0] & 1);
    bool header = false;
    int64_t t = 0;
    std::vector<std::optional<double>> values;
    std::string error;
    std::vector<std::string> problems;
    forEachLine(text, [&](std::string_view line) {
        if (!header) {
            header = parser.parseHeader(line);
            return;
        }
        if (parser.parseRow(line, t, values, error, problems) && values.size() != parser.columns().size())
            std::abort();
    });
}

} // namespace stepscope::fuzz::csv_metric

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::csv_metric::run)

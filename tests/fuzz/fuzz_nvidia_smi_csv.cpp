// libFuzzer target: NvidiaSmiCsvParser over the lines of the input, as NvidiaSmiCsvImporter drives
// it (a header line replaces the layout; rows before a header are skipped). Checks: no crash/UB/
// leak; every row has one value slot per column.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/nvidia_smi_csv_parser.h"

#include <cstdlib>

namespace stepscope::fuzz::nvidia_smi_csv {

inline void run(const uint8_t *data, size_t size) {
    metrics::NvidiaSmiCsvParser parser;
    metrics::NvidiaSmiCsvParser::Row row;
    std::string error;
    std::vector<std::string> problems;
    forEachLine({reinterpret_cast<const char *>(data), size}, [&](std::string_view line) {
        if (metrics::NvidiaSmiCsvParser::isHeader(line)) {
            parser.parseHeader(line);
            return;
        }
        if (!parser.hasHeader()) return;
        if (parser.parseRow(line, row, error, problems) && row.values.size() != parser.columns().size())
            std::abort();
    });
}

} // namespace stepscope::fuzz::nvidia_smi_csv

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::nvidia_smi_csv::run)

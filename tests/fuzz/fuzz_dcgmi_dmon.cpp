// libFuzzer target: DcgmiDmonParser over the lines of the input (#Entity header, ID line, entity
// rows). Checks: no crash/UB/leak; rows carry one value slot per column.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/dcgmi_dmon_parser.h"

#include <cstdlib>

namespace stepscope::fuzz::dcgmi_dmon {

inline void run(const uint8_t *data, size_t size) {
    metrics::DcgmiDmonParser parser;
    metrics::DcgmiDmonParser::Row row;
    std::string error;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    metrics::DcgmiDmonParser::looksLikeDcgmi(text.substr(0, 4096));
    forEachLine(text, [&](std::string_view line) {
        if (parser.parseLine(line, row, error) == metrics::DcgmiDmonParser::Result::Row &&
            row.values.size() != parser.columns().size())
            std::abort();
    });
}

} // namespace stepscope::fuzz::dcgmi_dmon

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::dcgmi_dmon::run)

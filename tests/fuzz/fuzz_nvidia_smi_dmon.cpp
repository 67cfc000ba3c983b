// libFuzzer target: NvidiaSmiDmonParser over the lines of the input (names line, units line, rows,
// -o DT date/time columns). Checks: no crash/UB/leak; rows carry one value slot per column.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/nvidia_smi_dmon_parser.h"

#include <cstdlib>

namespace stepscope::fuzz::nvidia_smi_dmon {

inline void run(const uint8_t *data, size_t size) {
    metrics::NvidiaSmiDmonParser parser;
    metrics::NvidiaSmiDmonParser::Row row;
    std::string error;
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    metrics::NvidiaSmiDmonParser::looksLikeDmon(text.substr(0, 4096));
    forEachLine(text, [&](std::string_view line) {
        if (parser.parseLine(line, row, error) == metrics::NvidiaSmiDmonParser::Result::Row &&
            row.values.size() != parser.columns().size())
            std::abort();
    });
}

} // namespace stepscope::fuzz::nvidia_smi_dmon

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::nvidia_smi_dmon::run)

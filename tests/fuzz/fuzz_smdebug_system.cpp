// libFuzzer target: SmdebugSystemParser (SageMaker Debugger system-metrics JSON lines): the sniff,
// the flat-object parse and the series mapping of every line. Checks: no crash/UB/leak.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/smdebug_system_parser.h"

namespace stepscope::fuzz::smdebug_system {

inline void run(const uint8_t *data, size_t size) {
    metrics::SmdebugRecord rec;
    std::string error;
    forEachLine({reinterpret_cast<const char *>(data), size}, [&](std::string_view line) {
        metrics::SmdebugSystemParser::looksLikeRecord(line);
        if (metrics::SmdebugSystemParser::parse(line, rec, error)) metrics::SmdebugSystemParser::map(rec);
    });
}

} // namespace stepscope::fuzz::smdebug_system

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::smdebug_system::run)

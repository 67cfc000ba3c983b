// libFuzzer target: SadfParser over the lines of the input (`sadf -d` activity blocks under
// `# hostname;...` headers), then finish() for the pending sums. Checks: no crash/UB/leak.

#include "tests/fuzz/fuzz_support.h"

#include "importers/metrics/sadf_parser.h"

namespace stepscope::fuzz::sadf {

inline void run(const uint8_t *data, size_t size) {
    metrics::SadfParser parser;
    std::vector<metrics::SadfSample> out;
    std::string message;
    forEachLine({reinterpret_cast<const char *>(data), size}, [&](std::string_view line) {
        parser.parseLine(line, out, message);
        if (out.size() > 4096) out.clear();
    });
    parser.finish(out);
}

} // namespace stepscope::fuzz::sadf

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::sadf::run)

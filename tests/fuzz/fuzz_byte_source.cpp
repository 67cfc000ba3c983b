// libFuzzer target: ByteSource's gzip path (and LineTokenizer over it). The input is written to a file
// as is, so seeds that start with the gzip magic reach inflate; limits are set small (64 KiB
// expanded, ratio 50 past the default threshold) so the bomb check runs too. Checks: no crash/UB/
// leak, offsets stay consistent, an error always names the file.

#include "tests/fuzz/fuzz_support.h"

#include "importers/common/byte_source.h"
#include "importers/metrics/line_tokenizer.h"

#include <cstdlib>

namespace stepscope::fuzz::byte_source {

inline void run(const uint8_t *data, size_t size) {
    const auto file = writeScratch("input.json.gz", data, size);
    {
        ByteSource src(file);
        src.setLimits(int64_t(64) << 10, 50);
        std::vector<char> buf;
        int64_t total = 0;
        const size_t chunk = size ? size_t(data[size - 1]) + 1 : 1;
        while (src.read(buf, chunk)) total += int64_t(buf.size());
        if (total != src.expandedOffset()) std::abort();
        if (!src.ok() && src.error().find(file.string()) == std::string::npos) std::abort();
    }
    {
        metrics::LineTokenizer lines(file);
        std::string_view line;
        int n = 0;
        while (lines.next(line) && n < 100000) ++n;
    }
    ByteSource::peek(file, 64);
}

} // namespace stepscope::fuzz::byte_source

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::byte_source::run)

// libFuzzer target: ChromeTraceTokenizer fed in chunks whose sizes come from the input's first
// byte (1..256 bytes, or all at once), so events, strings and escapes split at every boundary.
// Checks: no crash/UB/leak, every view handed out points at readable bytes, the tokenizer always
// ends (End or Error) after finish(), and offsets never move backwards.

#include "tests/fuzz/fuzz_support.h"

#include "importers/chrome/chrome_trace_tokenizer.h"

#include <cstdlib>

namespace stepscope::fuzz::chrome_tokenizer {

inline size_t touch(std::string_view v) {
    size_t h = v.size();
    for (char c : v) h = h * 31 + static_cast<unsigned char>(c);
    return h;
}

inline void run(const uint8_t *data, size_t size) {
    if (size == 0) return;
    const size_t chunk = data[0] == 0 ? size : size_t(data[0]);
    const char *p = reinterpret_cast<const char *>(data + 1);
    size_t left = size - 1;
    ChromeTraceTokenizer tok;
    TraceEvent ev;
    volatile size_t sink = 0;
    int64_t lastOffset = -1;
    bool finished = false;
    for (size_t guard = 0; guard < 4 * size + 16; ++guard) {
        const auto st = tok.next(ev);
        if (st == ChromeTraceTokenizer::Status::Event) {
            sink = sink + touch(ev.name) + touch(ev.cat) + touch(ev.pid) + touch(ev.tid) + touch(ev.id) +
                   touch(ev.bindId) + touch(ev.args) + touch(ev.argName) + touch(ev.argLabels);
            if (ev.offset < lastOffset) std::abort();
            lastOffset = ev.offset;
            continue;
        }
        if (st != ChromeTraceTokenizer::Status::NeedData) return;
        if (finished) std::abort();  // NeedData after finish(): the tokenizer would spin
        if (left == 0) {
            tok.finish();
            finished = true;
            continue;
        }
        const size_t n = std::min(chunk, left);
        tok.feed(p, n);
        p += n;
        left -= n;
    }
    std::abort();  // more steps than bytes: an endless loop
}

} // namespace stepscope::fuzz::chrome_tokenizer

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::chrome_tokenizer::run)

// libFuzzer target: the whole Chrome-trace import (ByteSource → tokenizer → buffer → nesting →
// writer) of one input file into a scratch session, rolled back after each input. Checks: no
// crash/UB/leak through the store side (slice nesting, flows, steps, counters, args spill), and
// bad input never throws out of the importer.

#include "tests/fuzz/fuzz_support.h"

#include "importers/chrome/chrome_trace_importer.h"

namespace stepscope::fuzz::chrome_import {

inline void run(const uint8_t *data, size_t size) {
    const auto file = writeScratch("input.pt.trace.json", data, size);
    withImportContext(file.string(), [&](ImportContext &ctx) {
        ChromeTraceImporter importer;
        importer.import(file, ctx);
    });
}

} // namespace stepscope::fuzz::chrome_import

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::chrome_import::run)

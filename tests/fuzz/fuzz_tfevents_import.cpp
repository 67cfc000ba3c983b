// libFuzzer target: the whole TensorBoard event-file import (TFRecord framing with CRC-32C, Event
// decoding, scalar series) of one input into a scratch session, rolled back after each input.
// Checks: no crash/UB/leak on absurd record lengths, bad CRCs and malformed protobuf.

#include "tests/fuzz/fuzz_support.h"

#include "importers/tfevents/tfevents_importer.h"

namespace stepscope::fuzz::tfevents_import {

inline void run(const uint8_t *data, size_t size) {
    const auto file = writeScratch("events.out.tfevents.1.host", data, size);
    withImportContext(file.string(), [&](ImportContext &ctx) {
        TfEventsImporter importer;
        importer.import(file, ctx);
    });
}

} // namespace stepscope::fuzz::tfevents_import

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::tfevents_import::run)

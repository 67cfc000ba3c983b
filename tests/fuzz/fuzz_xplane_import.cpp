// libFuzzer target: the whole XPlane (.xplane.pb) import of one input into a scratch session,
// rolled back after each input: wire reader, plane index, line/space writers. Checks: no crash/UB/
// leak on absurd lengths, truncated messages and unknown fields; never a throw out of import().

#include "tests/fuzz/fuzz_support.h"

#include "importers/xplane/xplane_importer.h"

namespace stepscope::fuzz::xplane_import {

inline void run(const uint8_t *data, size_t size) {
    const auto file = writeScratch("host.xplane.pb", data, size);
    withImportContext(file.string(), [&](ImportContext &ctx) {
        XPlaneImporter importer;
        importer.import(file, ctx);
    });
}

} // namespace stepscope::fuzz::xplane_import

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::xplane_import::run)

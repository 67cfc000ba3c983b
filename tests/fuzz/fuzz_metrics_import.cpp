// libFuzzer target: the whole import of one metrics file (line reading, parser, MetricWriter, series
// and samples in a scratch session, rolled back after each input). The first byte picks the
// importer: nvidia-smi CSV, nvidia-smi dmon, dcgmi dmon, sadf, SageMaker JSON lines, CloudWatch
// CSV, generic CSV. Checks: no crash/UB/leak on the store side, never a throw out of import().

#include "tests/fuzz/fuzz_support.h"

#include "importers/common/importer_registry.h"

#include <vector>

namespace stepscope::fuzz::metrics_import {

inline void run(const uint8_t *data, size_t size) {
    if (size == 0) return;
    static const ImporterRegistry registry;
    static const std::vector<Importer *> importers = [] {
        std::vector<Importer *> v;
        for (const auto &imp : registry.importers())
            if (imp->format() != "chrome_json" && imp->format().find("xplane") == std::string::npos &&
                imp->format().find("tfevent") == std::string::npos)
                v.push_back(imp.get());
        return v;
    }();
    Importer *importer = importers[data[0] % importers.size()];
    const auto file = writeScratch("metrics.csv", data + 1, size - 1);
    withImportContext(file.string(), [&](ImportContext &ctx) { importer->import(file, ctx); });
}

} // namespace stepscope::fuzz::metrics_import

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::metrics_import::run)

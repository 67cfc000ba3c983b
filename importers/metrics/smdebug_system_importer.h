#pragma once
// SmdebugSystemImporter imports SageMaker Debugger system-metrics JSON lines
// (system/incremental/<epoch>.<node>.json; format "smdebug_system"). Each line becomes one v_metric
// sample via SmdebugSystemParser; run = NodeId (e.g. "algo-1"). A bad or truncated line is a
// warning naming its line number and is skipped; the import is then Partial.
// Registered in ImporterRegistry; called by the command line, the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class SmdebugSystemImporter : public Importer {
public:
    std::string format() const override { return "smdebug_system"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

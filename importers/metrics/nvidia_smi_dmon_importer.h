#pragma once
// NvidiaSmiDmonImporter imports `nvidia-smi dmon` text logs (format "nvidia_smi_dmon") through
// NvidiaSmiDmonParser; device = GPU index. With `-o DT` the rows carry local date/time; without,
// samples are placed 1 s apart from the Unix epoch (relative times, noted in import_log) and the
// user aligns them with a clock offset.
// Registered in ImporterRegistry; called by the command line, the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class NvidiaSmiDmonImporter : public Importer {
public:
    std::string format() const override { return "nvidia_smi_dmon"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

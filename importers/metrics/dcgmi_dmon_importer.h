#pragma once
// DcgmiDmonImporter imports `dcgmi dmon` text (format "dcgmi_dmon") through DcgmiDmonParser;
// device = GPU id. The log has no timestamps: samples are placed 1 s apart (dcgmi's default
// -d 1000) from time 0, noted in import_log as relative times for the user to align.
// Registered in ImporterRegistry; called by the command line, the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class DcgmiDmonImporter : public Importer {
public:
    std::string format() const override { return "dcgmi_dmon"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

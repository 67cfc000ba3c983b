#pragma once
// NvidiaSmiCsvImporter imports `nvidia-smi --query-gpu=... --format=csv` logs (format
// "nvidia_smi_csv"): rows from NvidiaSmiCsvParser become v_metric samples (one series per column
// and GPU; device = GPU index). Times are the file's local wall clock read in this process's TZ.
// Registered in ImporterRegistry; called by the command line, the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class NvidiaSmiCsvImporter : public Importer {
public:
    std::string format() const override { return "nvidia_smi_csv"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

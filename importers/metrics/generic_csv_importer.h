#pragma once
// GenericCsvImporter imports any "time column + numeric columns" CSV (format "metrics_csv"):
// every numeric column becomes a v_metric series named after the column (unit from a trailing
// "[unit]"), device NULL. It sniffs last: files that a more specific importer (nvidia-smi,
// CloudWatch, sadf) accepts are left to it.
// Registered in ImporterRegistry (after the other metric importers); called by the command line,
// the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class GenericCsvImporter : public Importer {
public:
    std::string format() const override { return "metrics_csv"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

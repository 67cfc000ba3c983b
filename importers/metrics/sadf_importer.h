#pragma once
// SadfImporter imports `sadf -d` sysstat output (format "sysstat_sadf"): SadfParser's samples go to
// v_metric with run = the hostname column. Restart/comment records become info rows in import_log;
// rows that do not fit their block header are warnings.
// Registered in ImporterRegistry; called by the command line, the GUI and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class SadfImporter : public Importer {
public:
    std::string format() const override { return "sysstat_sadf"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

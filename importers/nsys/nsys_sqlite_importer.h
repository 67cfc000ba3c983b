#pragma once
// NsysSqliteImporter reads an Nsight Systems SQLite export (`nsys export --type sqlite`; FORMATS.md
// §8) into one run: NsysTokenizer turns the event tables into trace events for TraceEventBuffer
// and TraceEventWriter writes them (time base: TARGET_INFO_SESSION_START_TIME; devices:
// TARGET_INFO_GPU; steps: NVTX ranges named by resources/rules/step_ranges.tsv); GPU metrics sampling
// becomes metric series (nsys_gpu_metrics.h). Sniffed by content (SQLite header + the export's
// tables), never by name; the file is opened read-only and left untouched. A table or column the
// export lacks is logged once; unreadable pages end the import with what was read (partial).

#include "importers/common/importer.h"

namespace stepscope {

class NsysSqliteImporter : public Importer {
public:
    std::string format() const override { return "nsys_sqlite"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    std::string refusal(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

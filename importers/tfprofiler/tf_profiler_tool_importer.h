#pragma once
// TfProfilerToolImporter imports what the TensorFlow profiler concluded about a profile run: one of
// its tool files (`<host>.overview_page.pb`, `.input_pipeline.pb`, `.tensorflow_stats.pb`,
// `.kernel_stats.pb`; older TF writes them beside the trace, XProf caches them in the run's folder)
// becomes one tool_verdict row (TfProfilerToolParser reads it). The analysis puts it beside
// Stepscope's own verdict for the run traced in the same folder (CrossChecks). A file that cannot be
// read is a warning naming the file and the reason, never a crash. Registered in ImporterRegistry.

#include "importers/common/importer.h"

namespace stepscope {

class TfProfilerToolImporter : public Importer {
public:
    std::string format() const override { return "tf_profiler_tool"; }
    // The tool's file name and a first byte that opens a protobuf field (or an empty file, refused
    // with its reason at import).
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;

    static constexpr int64_t kMaxBytes = 256LL << 20;  // tool files are kilobytes to a few megabytes
};

} // namespace stepscope

#pragma once
// TfEventsImporter reads a TensorBoard event file (`events.out.tfevents.*`, any name: content
// decides) into metric series: one series per scalar tag, named by the tag, on the wall-clock axis
// (wall_time seconds → epoch ns), in a run named after the file's folder (TensorBoard's run). Each
// record goes TfRecordTokenizer → TfEventParser → SessionWriter. A record with a bad CRC is a warning
// and skipped; duplicate (tag, step) pairs are all kept (each is a real write, at its own time).
// Registered in ImporterRegistry; called by logdir discovery and the CLI.

#include "importers/common/importer.h"

namespace stepscope {

class TfEventsImporter : public Importer {
public:
    std::string format() const override { return "tfevents"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;

    // The run a file's scalars belong to: its folder's name ("." folders give the file name).
    static std::string runNameFor(const std::filesystem::path &file);
};

} // namespace stepscope

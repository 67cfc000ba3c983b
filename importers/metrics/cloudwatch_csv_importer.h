#pragma once
// CloudWatchCsvImporter imports CloudWatch metric CSV exports (format "cloudwatch_csv"): a time
// column plus one column per metric whose header names a CloudWatch metric (CPUUtilization,
// NetworkIn, DiskReadBytes, ...), optionally with an instance qualifier that becomes the run.
// Byte counts per period (NetworkIn/Out, Disk/EBS Read/WriteBytes) are divided by the sampling
// period (median spacing, measured in a first short pass) to give B/s. Zone-less times are UTC
// (CloudWatch's own clock).
// Registered in ImporterRegistry before GenericCsvImporter; called by the command line, the GUI
// and logdir discovery.

#include "importers/common/importer.h"

namespace stepscope {

class CloudWatchCsvImporter : public Importer {
public:
    std::string format() const override { return "cloudwatch_csv"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope

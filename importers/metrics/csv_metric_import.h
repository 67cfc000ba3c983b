#pragma once
// The streaming loop shared by the CSV metric importers (GenericCsvImporter, CloudWatchCsvImporter):
// header -> CsvMetricParser, each row -> MetricWriter, with a per-column mapping decided once per
// header (series name, unit, scale, run). Logs info rows for zone-less or relative times.

#include "importers/metrics/csv_metric_parser.h"
#include "importers/metrics/metric_writer.h"

#include <functional>

namespace stepscope::metrics {

struct CsvColumnTarget {
    bool keep = true;
    std::string series, unit, run;  // empty run = the writer's default run
    double scale = 1.0;
};
using CsvColumnMapper = std::function<CsvColumnTarget(const CsvMetricParser::Column &)>;

ImportResult importCsvMetrics(const std::filesystem::path &file, ImportContext &ctx, MetricWriter &writer,
                              const CsvColumnMapper &mapper, const std::string &emptyMessage,
                              bool zonelessUtc = false);

// Median spacing (ns) of the first rows' times; 0 when fewer than two rows parse.
int64_t csvTimeSpacing(const std::filesystem::path &file, size_t maxRows = 2000);

} // namespace stepscope::metrics

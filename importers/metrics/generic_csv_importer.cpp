#include "importers/metrics/generic_csv_importer.h"

#include "importers/metrics/cloudwatch_csv_importer.h"
#include "importers/metrics/csv_metric_import.h"
#include "importers/metrics/nvidia_smi_csv_importer.h"

namespace stepscope {

using namespace metrics;

bool GenericCsvImporter::sniff(const std::filesystem::path &file, std::string_view head) const {
    if (NvidiaSmiCsvImporter().sniff(file, head) || CloudWatchCsvImporter().sniff(file, head)) return false;
    return CsvMetricParser::looksLikeMetricCsv(head);
}

ImportResult GenericCsvImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    MetricWriter writer(ctx, runNameFor(file));
    auto mapper = [](const CsvMetricParser::Column &c) { return CsvColumnTarget{true, c.name, c.unit, {}, 1.0}; };
    return importCsvMetrics(file, ctx, writer, mapper,
                            "no samples found (expected a header, a time column and numeric columns)");
}

} // namespace stepscope

#include "importers/metrics/cloudwatch_csv_importer.h"

#include "importers/metrics/cloudwatch_names.h"
#include "importers/metrics/csv_metric_import.h"

namespace stepscope {

using namespace metrics;

bool CloudWatchCsvImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    std::vector<std::string> header;
    if (!CsvMetricParser::looksLikeMetricCsv(head, &header)) return false;
    for (const auto &h : header)
        if (matchCloudWatchMetric(h)) return true;
    return false;
}

ImportResult CloudWatchCsvImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    MetricWriter writer(ctx, runNameFor(file));
    const int64_t periodNs = csvTimeSpacing(file);
    bool dividedAny = false, undividable = false;
    auto mapper = [&](const CsvMetricParser::Column &c) {
        CsvColumnTarget t{true, c.name, c.unit, {}, 1.0};
        if (!c.header.empty() && c.header.back() == ')') {  // "Metric (i-0abc)": a qualifier, not a unit
            t.run = c.unit;
            t.unit.clear();
        }
        if (auto m = matchCloudWatchMetric(c.header)) {
            t.series = m->series;
            t.unit = m->unit;
            t.run = m->qualifier;
            if (m->perPeriod) {
                if (periodNs > 0) {
                    t.scale = 1e9 / double(periodNs);
                    dividedAny = true;
                } else {
                    t.unit = "B";  // one sample only: no period to divide by
                    undividable = true;
                }
            }
        }
        return t;
    };
    ImportResult r = importCsvMetrics(file, ctx, writer, mapper, "no CloudWatch samples found", true);
    if (dividedAny)
        ctx.info(ImportLogCode::UnitConverted, "", "byte counts per period (NetworkIn/Out, Disk/EBS Read/WriteBytes) divided by the " +
                         std::to_string(periodNs / 1000000) + " ms sample spacing to give B/s");
    if (undividable) ctx.info(ImportLogCode::UnitConverted, "", "a single sample: byte counts kept as bytes per period (unit B)");
    return r;
}

} // namespace stepscope

#include "importers/metrics/dcgmi_dmon_importer.h"

#include "importers/metrics/dcgmi_dmon_parser.h"
#include "importers/metrics/metric_writer.h"

namespace stepscope {

using namespace metrics;

bool DcgmiDmonImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    return DcgmiDmonParser::looksLikeDcgmi(head);
}

ImportResult DcgmiDmonImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    constexpr int64_t kIntervalNs = 1000000000;
    MetricWriter writer(ctx, runNameFor(file));
    DcgmiDmonParser parser;
    DcgmiDmonParser::Row row;
    std::string error;
    int64_t skippedEntities = 0;
    auto onLine = [&](std::string_view line, int64_t n) {
        DcgmiDmonParser::Result res = parser.parseLine(line, row, error);
        if (res == DcgmiDmonParser::Result::Bad) writer.warn(ImportLogCode::BadRow, n, error + "; row skipped");
        if (res == DcgmiDmonParser::Result::Skipped && skippedEntities++ == 0)
            ctx.info(ImportLogCode::NotImported, "line " + std::to_string(n), "rows of non-GPU entities (GPU-I, CPU, switch) are not imported");
        if (res != DcgmiDmonParser::Result::Row) return true;
        const auto &cols = parser.columns();
        for (size_t i = 0; i < cols.size(); ++i) {
            if (!row.values[i]) continue;
            int h = writer.series(cols[i].series, row.device, cols[i].unit);
            writer.setFixedPeriod(h, kIntervalNs);
            writer.add(h, row.sample * kIntervalNs, *row.values[i]);
        }
        return true;
    };
    ImportResult r = driveLines(file, ctx, writer, "no dcgmi dmon GPU samples found", onLine);
    if (r.events > 0)
        ctx.info(ImportLogCode::RelativeTimes, "", "dcgmi dmon has no timestamps: samples are placed 1 s apart starting at time 0; times are "
                     "relative -- set the source's clock offset to its start time");
    return r;
}

} // namespace stepscope

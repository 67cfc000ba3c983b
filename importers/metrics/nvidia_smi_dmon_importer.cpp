#include "importers/metrics/nvidia_smi_dmon_importer.h"

#include "importers/metrics/metric_writer.h"
#include "importers/metrics/nvidia_smi_dmon_parser.h"

namespace stepscope {

using namespace metrics;

bool NvidiaSmiDmonImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    return NvidiaSmiDmonParser::looksLikeDmon(head);
}

ImportResult NvidiaSmiDmonImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    constexpr int64_t kIntervalNs = 1000000000;  // dmon's default -d 1
    MetricWriter writer(ctx, runNameFor(file));
    NvidiaSmiDmonParser parser;
    NvidiaSmiDmonParser::Row row;
    std::string error;
    bool relative = false;
    auto onLine = [&](std::string_view line, int64_t n) {
        NvidiaSmiDmonParser::Result res = parser.parseLine(line, row, error);
        if (res == NvidiaSmiDmonParser::Result::Bad) writer.warn(ImportLogCode::BadRow, n, error + "; row skipped");
        if (res != NvidiaSmiDmonParser::Result::Row) return true;
        const int64_t t = row.tNs ? *row.tNs : row.sample * kIntervalNs;
        relative = relative || !row.tNs;
        const auto &cols = parser.columns();
        for (size_t i = 0; i < cols.size(); ++i) {
            if (!row.values[i]) continue;
            int h = writer.series(cols[i].series, row.device, cols[i].unit);
            if (!row.tNs) writer.setFixedPeriod(h, kIntervalNs);
            writer.add(h, t, *row.values[i]);
        }
        return true;
    };
    ImportResult r = driveLines(file, ctx, writer, "no nvidia-smi dmon samples found", onLine);
    if (relative)
        ctx.info(ImportLogCode::RelativeTimes, "", "no timestamps in this dmon log (no -o DT): samples are placed 1 s apart starting at "
                     "time 0; times are relative -- set the source's clock offset to its start time");
    return r;
}

} // namespace stepscope

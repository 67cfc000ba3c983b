#include "importers/metrics/smdebug_system_importer.h"

#include "importers/metrics/metric_writer.h"
#include "importers/metrics/smdebug_system_parser.h"

namespace stepscope {

using namespace metrics;

bool SmdebugSystemImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    std::string_view first = head.substr(0, head.find('\n'));
    return SmdebugSystemParser::looksLikeRecord(first);
}

ImportResult SmdebugSystemImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    MetricWriter writer(ctx, runNameFor(file));
    SmdebugRecord rec;
    std::string error;
    int64_t skipped = 0;
    auto onLine = [&](std::string_view line, int64_t n) {
        if (trim(line).empty()) return true;
        if (!SmdebugSystemParser::parse(line, rec, error)) {
            ++skipped;
            writer.warn(ImportLogCode::BadRow, n, error + "; line skipped");
            return true;
        }
        SmdebugSeries s = SmdebugSystemParser::map(rec);
        writer.add(writer.series(s.series, s.device, s.unit, rec.nodeId), rec.tNs, rec.value);
        return true;
    };
    ImportResult r = driveLines(file, ctx, writer, "no SageMaker system-metric records found", onLine);
    if (skipped > 0 && r.status != SourceStatus::Failed)
        r.message = file.string() + ": " + std::to_string(skipped) + " bad line(s) skipped; first at " +
                    writer.firstProblem();
    return r;
}

} // namespace stepscope

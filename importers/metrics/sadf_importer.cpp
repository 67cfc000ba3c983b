#include "importers/metrics/sadf_importer.h"

#include "importers/metrics/metric_writer.h"
#include "importers/metrics/sadf_parser.h"

namespace stepscope {

using namespace metrics;

bool SadfImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    return startsWith(head, "# hostname;interval;timestamp;");
}

ImportResult SadfImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    MetricWriter writer(ctx, runNameFor(file));
    SadfParser parser;
    std::vector<SadfSample> out;
    std::string message;
    auto emit = [&] {
        for (const SadfSample &s : out) writer.add(writer.series(s.series, s.device, s.unit, s.host), s.tNs, s.value);
        out.clear();
    };
    auto onLine = [&](std::string_view line, int64_t n) {
        switch (parser.parseLine(line, out, message)) {
        case SadfParser::Result::Info: ctx.info(ImportLogCode::SourceNote, "line " + std::to_string(n), message); break;
        case SadfParser::Result::Bad: writer.warn(ImportLogCode::BadRow, n, message); break;
        default: break;
        }
        emit();
        return true;
    };
    return driveLines(file, ctx, writer, "no CPU, memory, network or disk samples found (sadf -d)", onLine, [&] {
        parser.finish(out);  // the last pending network/disk sums
        emit();
    });
}

} // namespace stepscope

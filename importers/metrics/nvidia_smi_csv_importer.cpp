#include "importers/metrics/nvidia_smi_csv_importer.h"

#include "importers/metrics/metric_writer.h"
#include "importers/metrics/nvidia_smi_csv_parser.h"

namespace stepscope {

using namespace metrics;

bool NvidiaSmiCsvImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    if (head.size() >= 3 && (unsigned char)head[0] == 0xEF) head.remove_prefix(3);  // BOM
    std::string_view first = head.substr(0, head.find('\n'));
    return startsWith(trim(first), "timestamp, ");
}

ImportResult NvidiaSmiCsvImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    MetricWriter writer(ctx, runNameFor(file));
    NvidiaSmiCsvParser parser;
    NvidiaSmiCsvParser::Row row;
    std::string error;
    std::vector<std::string> problems;
    std::vector<std::vector<int>> byDevice;
    bool sawHeader = false;

    auto onLine = [&](std::string_view line, int64_t n) {
        if (trim(line).empty()) return true;
        if (NvidiaSmiCsvParser::isHeader(line)) {
            parser.parseHeader(line);
            byDevice.clear();
            sawHeader = true;
            return true;
        }
        if (!parser.hasHeader()) {
            writer.warn(ImportLogCode::BadHeader, n, "data before the 'timestamp, ...' header; not an nvidia-smi --query-gpu CSV line");
            return n < 100;  // give up on a file that never shows a header
        }
        if (!parser.parseRow(line, row, error, problems)) {
            writer.warn(ImportLogCode::BadRow, n, error + "; row skipped");
            return true;
        }
        for (const auto &p : problems) writer.warn(ImportLogCode::BadValue, n, "not a number: " + p + "; no sample");
        if (row.device > 4096) {
            writer.warn(ImportLogCode::BadRow, n, "GPU index " + std::to_string(row.device) + " out of range; row skipped");
            return true;
        }
        if (byDevice.size() <= size_t(row.device)) byDevice.resize(size_t(row.device) + 1);
        auto &h = byDevice[size_t(row.device)];
        const auto &cols = parser.columns();
        if (h.size() < cols.size()) h.assign(cols.size(), -1);
        for (size_t i = 0; i < cols.size(); ++i) {
            if (!row.values[i]) continue;
            if (h[i] < 0) h[i] = writer.series(cols[i].series, row.device, cols[i].unit);
            writer.add(h[i], row.tNs, *row.values[i]);
        }
        return true;
    };
    ImportResult r = driveLines(file, ctx, writer, "no nvidia-smi samples found", onLine);
    if (!sawHeader && r.status == SourceStatus::Failed && r.message.find("empty file") == std::string::npos)
        r.message = file.string() + ": not an nvidia-smi --query-gpu CSV (no 'timestamp, ...' header line)";
    return r;
}

} // namespace stepscope

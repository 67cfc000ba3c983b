#include "importers/metrics/csv_metric_import.h"

namespace stepscope::metrics {

ImportResult importCsvMetrics(const std::filesystem::path &file, ImportContext &ctx, MetricWriter &writer,
                              const CsvColumnMapper &mapper, const std::string &emptyMessage,
                              bool zonelessUtc) {
    CsvMetricParser parser;
    parser.setZonelessUtc(zonelessUtc);
    std::vector<CsvColumnTarget> targets;
    std::vector<int> handles;
    std::vector<std::optional<double>> values;
    std::vector<std::string> problems;
    std::string error;
    bool haveHeader = false;
    auto onLine = [&](std::string_view line, int64_t n) {
        if (trim(line).empty() || trim(line).front() == '#') return true;
        if (!haveHeader) {
            if (!parser.parseHeader(line)) {
                writer.warn(ImportLogCode::BadHeader, n, "header needs a time column and at least one value column");
                return false;
            }
            haveHeader = true;
            targets.clear();
            for (const auto &c : parser.columns()) targets.push_back(c.isTime ? CsvColumnTarget{false, {}, {}, {}, 1.0} : mapper(c));
            handles.assign(targets.size(), -1);
            return true;
        }
        int64_t t = 0;
        std::vector<bool> wasText;
        for (const auto &c : parser.columns()) wasText.push_back(c.isText);
        if (!parser.parseRow(line, t, values, error, problems)) {
            writer.warn(ImportLogCode::BadRow, n, error + "; row skipped");
            return true;
        }
        for (const auto &p : problems) writer.warn(ImportLogCode::BadValue, n, "not a number: " + p + "; no sample");
        for (size_t i = 0; i < parser.columns().size(); ++i)  // a column that turned out not to be numbers
            if (parser.columns()[i].isText && !wasText[i] && targets[i].keep && parser.columns()[i].brokenNumber)
                writer.warn(ImportLogCode::BadValue, n, "column '" + parser.columns()[i].header + "' does not start with a number ('" +
                                   parser.columns()[i].textSample + "'): read as text, not imported");
        for (size_t i = 0; i < values.size(); ++i) {
            if (!values[i] || !targets[i].keep) continue;
            if (handles[i] < 0) handles[i] = writer.series(targets[i].series, std::nullopt, targets[i].unit, targets[i].run);
            writer.add(handles[i], t, *values[i] * targets[i].scale);
        }
        return true;
    };
    ImportResult r = driveLines(file, ctx, writer, emptyMessage, onLine);
    if (parser.sawZonelessTime() && zonelessUtc)
        ctx.info(ImportLogCode::TimeZoneAssumed, "", "times carry no zone; read as UTC");
    else if (parser.sawZonelessTime())
        ctx.info(ImportLogCode::TimeZoneAssumed, "", "times carry no zone; read as local time of this machine (TZ), adjust with a clock offset if needed");
    if (parser.relativeTimes())
        ctx.info(ImportLogCode::RelativeTimes, "", "times are small numbers (seconds from some start), not wall-clock epoch times; set a clock offset to align");
    return r;
}

int64_t csvTimeSpacing(const std::filesystem::path &file, size_t maxRows) {
    LineTokenizer reader(file);
    CsvMetricParser parser;
    SpacingTracker spacing;
    std::vector<std::optional<double>> values;
    std::vector<std::string> problems;
    std::string error;
    std::string_view line;
    bool haveHeader = false;
    size_t rows = 0;
    while (rows < maxRows && reader.next(line)) {
        if (trim(line).empty() || trim(line).front() == '#') continue;
        if (!haveHeader) {
            if (!parser.parseHeader(line)) return 0;
            haveHeader = true;
            continue;
        }
        int64_t t = 0;
        if (parser.parseRow(line, t, values, error, problems)) {
            spacing.add(t);
            ++rows;
        }
    }
    return spacing.median();
}

} // namespace stepscope::metrics

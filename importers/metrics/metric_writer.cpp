#include "importers/metrics/metric_writer.h"

namespace stepscope::metrics {

int MetricWriter::series(const std::string &name, std::optional<int64_t> device, const std::string &unit,
                       const std::string &run) {
    const std::string &r = run.empty() ? m_defaultRun : run;
    std::string key = r;
    key += '\0';
    key += name;
    key += '\0';
    key += device ? std::to_string(*device) : std::string("-");
    auto it = m_index.find(key);
    if (it != m_index.end()) return it->second;
    Series s;
    s.run = r;
    s.name = name;
    s.unit = unit;
    s.device = device;
    m_series.push_back(std::move(s));
    int handle = int(m_series.size() - 1);
    m_index.emplace(std::move(key), handle);
    return handle;
}

void MetricWriter::add(int handle, int64_t tNs, double value) {
    Series &s = m_series[size_t(handle)];
    if (s.id < 0) s.id = m_ctx.writer().addMetricSeries(m_ctx.sourceId(), s.run, s.name, s.device, s.unit, 0);
    m_ctx.writer().addMetricSample(s.id, tNs, value);
    s.spacing.add(tNs);
    ++m_samples;
}

void MetricWriter::warn(ImportLogCode code, int64_t line, const std::string &reason) {
    const std::string pos = "line " + std::to_string(line);
    if (m_firstProblem.empty()) m_firstProblem = pos + ": " + reason;
    m_ctx.warn(code, pos, reason);
}

void MetricWriter::finish() {
    for (Series &s : m_series) {
        if (s.id < 0) continue;
        int64_t period = s.fixedPeriod > 0 ? s.fixedPeriod : s.spacing.median();
        if (period > 0) m_ctx.writer().setMetricSeriesPeriod(s.id, period);
    }
}

std::string runNameFor(const std::filesystem::path &file) { return file.filename().string(); }

ImportResult driveLines(const std::filesystem::path &file, ImportContext &ctx, MetricWriter &writer,
                        const std::string &emptyMessage,
                        const std::function<bool(std::string_view, int64_t)> &onLine,
                        const std::function<void()> &onEnd) {
    ImportResult result;
    LineTokenizer reader(file);
    if (!reader.ok()) {
        ctx.error(ImportLogCode::CannotOpen, "", reader.error());
        return {SourceStatus::Failed, 0, reader.error()};
    }
    const int64_t total = reader.fileSize();
    if (total == 0) {
        const std::string msg = file.string() + ": empty file (0 bytes)";
        ctx.error(ImportLogCode::EmptyFile, "", "empty file (0 bytes)");
        return {SourceStatus::Failed, 0, msg};
    }
    std::string_view line;
    bool cancelled = false;
    while (reader.next(line)) {
        const int64_t n = reader.lineNumber();
        if ((n & 4095) == 0) {
            ctx.progress(reader.bytesRead(), total);
            if (ctx.cancelled()) { cancelled = true; break; }
        }
        if (reader.lastLineTruncated()) {
            writer.warn(ImportLogCode::LineTooLong, n, "line longer than 16 MiB; skipped");
            continue;
        }
        if (!onLine(line, n)) break;
    }
    ctx.progress(reader.bytesRead(), total);
    if (onEnd && !cancelled) onEnd();
    writer.finish();
    result.events = writer.samples();
    if (cancelled) return {SourceStatus::Failed, result.events, file.string() + ": import cancelled"};
    bool readError = !reader.ok();
    if (readError) ctx.error(ImportLogCode::ReadError, "line " + std::to_string(reader.lineNumber() + 1), reader.error());
    if (result.events == 0) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": " + (readError ? reader.error() : emptyMessage);
        if (!readError) ctx.error(ImportLogCode::EmptyFile, "", emptyMessage);
        return result;
    }
    if (readError) {
        result.status = SourceStatus::Partial;
        result.message = reader.error();
    } else if (ctx.warnings() > 0) {
        result.status = SourceStatus::Partial;
        result.message = file.string() + ": " + std::to_string(ctx.warnings()) + " problem(s) in import_log" +
                         (writer.firstProblem().empty() ? std::string() : "; first at " + writer.firstProblem());
    }
    return result;
}

} // namespace stepscope::metrics

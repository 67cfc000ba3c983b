#pragma once
// MetricWriter is the store side shared by every metric importer: it maps (run, series name,
// device) to a metric_series row (created on the first real sample, so an all-N/A column leaves
// no empty series), writes samples through SessionWriter, tracks each series' sample spacing and
// sets period_ns to the median spacing at finish(). driveLines() is the common streaming loop
// (line reading, progress, cancel, 0-byte and read-error handling, final status).
// Called by the importers in importers/metrics/.

#include "importers/common/import_context.h"
#include "importers/metrics/line_tokenizer.h"
#include "importers/metrics/metric_text.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope::metrics {

class MetricWriter {
public:
    MetricWriter(ImportContext &ctx, std::string defaultRun) : m_ctx(ctx), m_defaultRun(std::move(defaultRun)) {}

    // Handle for a series; cheap to call repeatedly (hash lookup). Empty run = default run.
    int series(const std::string &name, std::optional<int64_t> device, const std::string &unit,
               const std::string &run = {});
    void add(int handle, int64_t tNs, double value);
    // Fixed period (e.g. relative 1 s samples) instead of the measured median spacing.
    void setFixedPeriod(int handle, int64_t periodNs) { m_series[size_t(handle)].fixedPeriod = periodNs; }
    void setDefaultRun(std::string run) { m_defaultRun = std::move(run); }
    const std::string &defaultRun() const { return m_defaultRun; }

    // ctx.warn at "line N", remembering the first problem for the result message.
    void warn(ImportLogCode code, int64_t line, const std::string &reason);
    const std::string &firstProblem() const { return m_firstProblem; }

    void finish();  // writes period_ns of every series
    int64_t samples() const { return m_samples; }
    size_t seriesCount() const { return m_series.size(); }

private:
    struct Series {
        std::string run, name, unit;
        std::optional<int64_t> device;
        int64_t id = -1;  // metric_series.id once created
        SpacingTracker spacing;
        int64_t fixedPeriod = 0;
    };
    ImportContext &m_ctx;
    std::string m_defaultRun;
    std::vector<Series> m_series;
    std::unordered_map<std::string, int> m_index;
    int64_t m_samples = 0;
    std::string m_firstProblem;
};

// Streams `file` line by line into `onLine(line, lineNumber)` (return false to stop early), with
// progress and cancel polling; `onEnd` runs after the last line (flush pending samples). Returns the finished ImportResult: Failed for a 0-byte/unreadable
// file, a cancel, or no samples (`emptyMessage`); Partial when warnings were recorded or the read
// stopped early on corrupt data; Ok otherwise. Calls writer.finish().
ImportResult driveLines(const std::filesystem::path &file, ImportContext &ctx, MetricWriter &writer,
                        const std::string &emptyMessage,
                        const std::function<bool(std::string_view, int64_t)> &onLine,
                        const std::function<void()> &onEnd = {});

// File name without directories: the run name when the file names no host.
std::string runNameFor(const std::filesystem::path &file);

} // namespace stepscope::metrics

#pragma once
// SessionReader is the read side of the store used by models, analysis and the command line:
// typed rows for sources, runs, tracks, steps, metrics and the import log. Times it returns are
// absolute (run time base + the user's clock offset for the source), in ns.

#include "models/store/ns_range.h"
#include "models/store/session_enums.h"
#include "models/store/session_store.h"
#include "models/store/slice_cost.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct SourceRow {
    int64_t id = 0;
    std::string path, format, status;
    int64_t sizeBytes = 0, events = 0, warnings = 0;
    int64_t clockOffsetNs = 0;
};

struct RunRow {
    int64_t id = 0, sourceId = 0;
    std::string name, host, framework, device;
    std::optional<int64_t> rank;
    int64_t timeBaseNs = 0;   // includes the source's clock offset
    bool hasEpoch = false;
    std::optional<StepSource> stepSource;  // none: imported before the session recorded it
};

struct TrackRow {
    int64_t id = 0, runId = 0;
    TrackKind kind = TrackKind::Other;
    std::string name, pid, tid;
    std::optional<int64_t> device;
    int64_t sortIndex = 0;
    int64_t slices = 0;
};

struct StepRow {
    int64_t step = 0, startNs = 0, durNs = 0;
};

// A tool_verdict row with the path of the file it came from.
struct ToolVerdictRow {
    int64_t sourceId = 0;
    std::string path, tool, kind;
    std::optional<double> inputPct;
    std::string verdict, deviceType;
    int64_t steps = 0;
    std::string topOpsJson;
};

struct MetricSeriesRow {
    int64_t id = 0, sourceId = 0;
    std::string run, name, unit;
    std::optional<int64_t> device;
    int64_t periodNs = 0, samples = 0;
};

struct LogRow {
    Severity severity = Severity::Info;
    std::string file, position, message;
    std::string code;  // import_log_code.h's stored text; "" in rows of sessions older than the codes
};

class SessionReader {
public:
    explicit SessionReader(const SessionStore &store) : m_store(store) {}

    std::vector<SourceRow> sources() const;
    std::vector<RunRow> runs() const;
    std::optional<RunRow> run(int64_t runId) const;   // one run by id (an index lookup, not a scan)
    bool singleRun() const;                            // exactly one run in the session
    std::vector<TrackRow> tracks(int64_t runId) const;
    std::vector<StepRow> steps(int64_t runId) const;  // absolute times
    std::vector<ToolVerdictRow> toolVerdicts() const;  // by file path
    std::string sourcePath(int64_t sourceId) const;    // empty when there is no such source
    int64_t sliceCount(std::optional<int64_t> runId = std::nullopt) const;
    // The op costs of a track's slices that start in [fromNs, toNs) (relative to the run's time base),
    // by start; implausible rows (altered sessions) are left out, dtypes other than the known ones read as "".
    std::vector<SliceCostRow> sliceCosts(int64_t trackId, int64_t fromNs, int64_t toNs) const;
    NsRange runTimeRange(int64_t runId) const;       // absolute; invalid when the run has no slices
    std::vector<MetricSeriesRow> metricSeries() const;
    std::optional<int64_t> firstMetricTime() const;    // absolute time of the earliest metric sample
    std::vector<LogRow> importLog(int limit = 1000) const;
    int64_t warningCount() const;                      // warnings + errors over all sources

private:
    const SessionStore &m_store;
};

} // namespace stepscope

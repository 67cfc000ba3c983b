#pragma once
// AnalysisInputReader is the store's side of what the analysis engine (models/analysis) reads: a
// run's trace tracks and their slices (one scan of the slice table, or by track), the strings they
// name, the args of slices by track and time range (kernel details, collectives) or of one slice
// (batch-size detection), the metric series with their sources' clock offsets and their samples,
// and the import log's skipped files. Rows are handed to callbacks in the order the SQL gives them,
// so the engine keeps its own arrays and nothing is copied twice. Callers: TraceLoader,
// OpStatsAnalyzer, CollectiveStats, BatchSizeDetector, MetricCatalog / MetricData, ReportBuilder.
// Times are as stored (relative to the run's time base); the callers add the base.

#include "models/store/session_store.h"
#include "models/store/sqlite_statement.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

// A host thread or GPU stream of a run, with how many slices it holds.
struct TraceTrackRow {
    int64_t id = 0;
    bool gpu = false;               // a gpu_stream (else a host_thread)
    std::optional<int64_t> device;  // as stored
    std::string name;
    int64_t slices = 0;
};

// One slice as the analysis reads it (no args).
struct TraceSliceRow {
    int64_t trackId = 0, startNs = 0, durNs = 0, nameId = 0;
    std::optional<int64_t> categoryId, correlation, parentId;
    int64_t id = 0;
};

// One metric series with its source's clock offset.
struct MetricSeriesEntry {
    int64_t id = 0;
    std::string run, name, unit;
    std::optional<int64_t> device;
    int64_t offsetNs = 0;
};

class AnalysisInputReader {
public:
    explicit AnalysisInputReader(const SessionStore &store) : m_store(store) {}

    // The run's host threads and GPU streams, by id.
    std::vector<TraceTrackRow> traceTracks(int64_t runId) const;
    int64_t highestSliceId() const;   // the slice table's extent (its rowid: no scan); 0 when empty
    int64_t highestStringId() const;  // the same for the string table
    // Every slice of the session, in table order.
    void scanSlices(const std::function<void(const TraceSliceRow &)> &row) const;
    // The slices of each track of `trackIds` in turn; `beforeTrack(i)` is called before track i's.
    void slicesOfTracks(const std::vector<int64_t> &trackIds, const std::function<void(size_t)> &beforeTrack,
                        const std::function<void(size_t, const TraceSliceRow &)> &row) const;

    // Every string of the session, or those of `ids` (looked up one by one).
    void scanStrings(const std::function<void(int32_t, std::string)> &row) const;
    void stringsOf(const std::vector<int32_t> &ids, const std::function<void(int32_t, std::string)> &row) const;

    // The slices with args on each track of `trackIds` starting in [fromNs, toNs), their names among
    // `nameIds` when it is given: row(track index, start, name id, args).
    void argsInRange(const std::vector<int64_t> &trackIds, int64_t fromNs, int64_t toNs,
                     const std::optional<std::vector<int32_t>> &nameIds,
                     const std::function<void(size_t, int64_t, int32_t, const std::string &)> &row) const;

    // The metric series with their sources' clock offsets, by id.
    std::vector<MetricSeriesEntry> metricSeries() const;
    // The samples of each series of `seriesIds` in turn, by time: row(series index, t, value).
    void metricSamples(const std::vector<int64_t> &seriesIds, const std::function<void(size_t, int64_t, double)> &row) const;

    // Files the import skipped (no source of their own).
    int64_t skippedFileCount() const;

private:
    const SessionStore &m_store;
};

// The args of one slice named by its track, start and name; one prepared statement for many lookups.
class SliceArgsLookup {
public:
    explicit SliceArgsLookup(const SessionStore &store);
    // None when there is no such slice or it has no args.
    std::optional<std::string> at(int64_t trackId, int64_t startNs, int64_t nameId);

private:
    SqliteStatement m_statement;
};

} // namespace stepscope

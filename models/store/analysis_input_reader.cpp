#include "models/store/analysis_input_reader.h"

#include "models/store/sqlite_statement.h"

namespace stepscope {
namespace {

constexpr const char *kTraceSliceColumns = "SELECT track_id, start_ns, dur_ns, name_id, category_id, correlation, id, parent_id FROM slice";

std::optional<int64_t> optionalColumn(const SqliteStatement &st, int col) {
    return st.columnIsNull(col) ? std::nullopt : std::optional<int64_t>(st.columnInt(col));
}

void readTraceSlice(const SqliteStatement &st, TraceSliceRow &r) {
    r.trackId = st.columnInt(0);
    r.startNs = st.columnInt(1);
    r.durNs = st.columnInt(2);
    r.nameId = st.columnInt(3);
    r.categoryId = optionalColumn(st, 4);
    r.correlation = optionalColumn(st, 5);
    r.id = st.columnInt(6);
    r.parentId = optionalColumn(st, 7);
}

int64_t highestRowId(const SessionStore &store, const char *sql) {
    SqliteStatement st(store.db(), sql);
    return st.step() && !st.columnIsNull(0) ? st.columnInt(0) : 0;
}

} // namespace

std::vector<TraceTrackRow> AnalysisInputReader::traceTracks(int64_t runId) const {
    std::vector<TraceTrackRow> out;
    SqliteStatement st(m_store.db(),
        "SELECT t.id, t.kind, t.device, t.name, (SELECT count(*) FROM slice s WHERE s.track_id = t.id) "
        "FROM track t WHERE t.run_id = ?1 AND t.kind IN ('host_thread', 'gpu_stream') ORDER BY t.id");
    st.bind(1, runId);
    while (st.step())
        out.push_back({st.columnInt(0), st.columnText(1) == "gpu_stream", optionalColumn(st, 2), st.columnText(3), st.columnInt(4)});
    return out;
}

int64_t AnalysisInputReader::highestSliceId() const { return highestRowId(m_store, "SELECT max(rowid) FROM slice"); }

int64_t AnalysisInputReader::highestStringId() const { return highestRowId(m_store, "SELECT max(id) FROM string"); }

void AnalysisInputReader::scanSlices(const std::function<void(const TraceSliceRow &)> &row) const {
    SqliteStatement st(m_store.db(), kTraceSliceColumns);
    TraceSliceRow r;
    while (st.step()) {
        readTraceSlice(st, r);
        row(r);
    }
}

void AnalysisInputReader::slicesOfTracks(const std::vector<int64_t> &trackIds, const std::function<void(size_t)> &beforeTrack,
                                         const std::function<void(size_t, const TraceSliceRow &)> &row) const {
    SqliteStatement st(m_store.db(), std::string(kTraceSliceColumns) + " WHERE track_id = ?1");
    TraceSliceRow r;
    for (size_t i = 0; i < trackIds.size(); ++i) {
        beforeTrack(i);
        st.bind(1, trackIds[i]);
        while (st.step()) {
            readTraceSlice(st, r);
            row(i, r);
        }
        st.reset();
    }
}

void AnalysisInputReader::scanStrings(const std::function<void(int32_t, std::string)> &row) const {
    SqliteStatement st(m_store.db(), "SELECT id, text FROM string");
    while (st.step()) row(int32_t(st.columnInt(0)), st.columnText(1));
}

void AnalysisInputReader::stringsOf(const std::vector<int32_t> &ids, const std::function<void(int32_t, std::string)> &row) const {
    SqliteStatement st(m_store.db(), "SELECT text FROM string WHERE id = ?1");
    for (const int32_t id : ids) {
        st.bind(1, int64_t(id));
        if (st.step()) row(id, st.columnText(0));
        st.reset();
    }
}

void AnalysisInputReader::argsInRange(const std::vector<int64_t> &trackIds, int64_t fromNs, int64_t toNs,
                                      const std::optional<std::vector<int32_t>> &nameIds,
                                      const std::function<void(size_t, int64_t, int32_t, const std::string &)> &row) const {
    std::string sql = "SELECT start_ns, name_id, args FROM slice WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 "
                      "AND args IS NOT NULL";
    if (nameIds) {
        if (nameIds->empty()) return;
        std::string list;  // integers only: nothing from outside reaches the SQL text
        for (const int32_t id : *nameIds) list += (list.empty() ? "" : ",") + std::to_string(id);
        sql += " AND name_id IN (" + list + ")";
    }
    SqliteStatement st(m_store.db(), sql);
    for (size_t i = 0; i < trackIds.size(); ++i) {
        st.bind(1, trackIds[i]);
        st.bind(2, fromNs);
        st.bind(3, toNs);
        while (st.step()) row(i, st.columnInt(0), int32_t(st.columnInt(1)), st.columnText(2));
        st.reset();
    }
}

std::vector<MetricSeriesEntry> AnalysisInputReader::metricSeries() const {
    std::vector<MetricSeriesEntry> out;
    SqliteStatement st(m_store.db(),
        "SELECT ms.id, ms.run, ms.name, ms.unit, ms.device, COALESCE(o.clock_offset_ns, 0) "
        "FROM metric_series ms JOIN source so ON so.id = ms.source_id "
        "LEFT JOIN source_setting o ON o.path = so.path ORDER BY ms.id");
    while (st.step())
        out.push_back({st.columnInt(0), st.columnText(1), st.columnText(2), st.columnText(3), optionalColumn(st, 4), st.columnInt(5)});
    return out;
}

void AnalysisInputReader::metricSamples(const std::vector<int64_t> &seriesIds,
                                        const std::function<void(size_t, int64_t, double)> &row) const {
    SqliteStatement st(m_store.db(), "SELECT t_ns, value FROM metric_sample WHERE series_id = ?1 ORDER BY t_ns");
    for (size_t i = 0; i < seriesIds.size(); ++i) {
        st.bind(1, seriesIds[i]);
        while (st.step()) row(i, st.columnInt(0), st.columnDouble(1));
        st.reset();
    }
}

int64_t AnalysisInputReader::skippedFileCount() const {
    SqliteStatement st(m_store.db(), "SELECT count(*) FROM import_log WHERE source_id IS NULL AND message LIKE 'skipped:%'");
    return st.step() ? st.columnInt(0) : 0;
}

SliceArgsLookup::SliceArgsLookup(const SessionStore &store)
    : m_statement(store.db(), "SELECT args FROM slice WHERE track_id = ?1 AND start_ns = ?2 AND name_id = ?3 AND args IS NOT NULL LIMIT 1") {}

std::optional<std::string> SliceArgsLookup::at(int64_t trackId, int64_t startNs, int64_t nameId) {
    SqliteStatement &st = m_statement;
    st.bind(1, trackId);
    st.bind(2, startNs);
    st.bind(3, nameId);
    std::optional<std::string> args;
    if (st.step()) args = st.columnText(0);
    st.reset();
    return args;
}

} // namespace stepscope

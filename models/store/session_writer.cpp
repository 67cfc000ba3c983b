#include "models/store/session_writer.h"

#include <chrono>

namespace stepscope {

std::string_view trackKindName(TrackKind k) {
    switch (k) {
    case TrackKind::HostThread: return "host_thread";
    case TrackKind::GpuStream: return "gpu_stream";
    case TrackKind::Counter: return "counter";
    case TrackKind::Other: break;
    }
    return "other";
}
std::string_view severityName(Severity s) {
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: break;
    }
    return "error";
}
TrackKind trackKindFromName(std::string_view name) {
    for (TrackKind k : {TrackKind::HostThread, TrackKind::GpuStream, TrackKind::Counter})
        if (trackKindName(k) == name) return k;
    return TrackKind::Other;
}

Severity severityFromName(std::string_view name) {
    for (Severity v : {Severity::Info, Severity::Warning})
        if (severityName(v) == name) return v;
    return Severity::Error;
}

std::string_view stepSourceName(StepSource s) {
    switch (s) {
    case StepSource::TfTrainFunction: return "tf_train_function";
    case StepSource::WholeTrace: return "whole_trace";
    case StepSource::Markers: break;
    }
    return "markers";
}

StepSource stepSourceFromName(std::string_view name) {
    for (StepSource v : {StepSource::TfTrainFunction, StepSource::WholeTrace})
        if (stepSourceName(v) == name) return v;
    return StepSource::Markers;
}

namespace {
// Page cache during an import transaction. 64 MiB: a 5 M-event Chrome import peaks near 400 MB
// without it and must stay under 512 MB; larger caches gained little more.
constexpr int64_t kImportCacheKiB = 65536;
// In-order writers: a 46 MB XPlane file (1 M slices) imports as fast with 16 MiB as with 64 MiB.
constexpr int64_t kSmallImportCacheKiB = 16384;

std::string_view statusName(SourceStatus s) {
    switch (s) {
    case SourceStatus::Ok: return "ok";
    case SourceStatus::Partial: return "partial";
    case SourceStatus::Failed: break;
    }
    return "failed";
}
} // namespace

SessionWriter::SessionWriter(SessionStore &store) : m_store(store) {}

SessionWriter::~SessionWriter() {
    if (m_active) {
        try { rollback(); } catch (...) {}
    }
}

void SessionWriter::prepare() {
    sqlite3 *db = m_store.db();
    m_insertString = SqliteStatement(db, "INSERT INTO string(text) VALUES (?1)");
    m_selectString = SqliteStatement(db, "SELECT id FROM string WHERE text = ?1");
    m_insertSlice = SqliteStatement(db, "INSERT INTO slice(track_id, start_ns, dur_ns, depth, parent_id, name_id, "
                                        "category_id, correlation, args) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)");
    m_insertFlow = SqliteStatement(db, "INSERT INTO flow(run_id, from_slice_id, to_slice_id, category_id) VALUES (?1,?2,?3,?4)");
    m_insertCounter = SqliteStatement(db, "INSERT INTO counter_sample(track_id, t_ns, value) VALUES (?1,?2,?3)");
    m_insertStep = SqliteStatement(db, "INSERT OR REPLACE INTO step(run_id, step, start_ns, dur_ns) VALUES (?1,?2,?3,?4)");
    m_insertMetricSample = SqliteStatement(db, "INSERT INTO metric_sample(series_id, t_ns, value) VALUES (?1,?2,?3)");
    m_insertTrack = SqliteStatement(db, "INSERT INTO track(run_id, kind, device, name, pid, tid, sort_index) "
                                        "VALUES (?1,?2,?3,?4,?5,?6,?7)");
    m_insertRun = SqliteStatement(db, "INSERT INTO run(source_id, name, host, framework, device, rank, time_base_ns, "
                                      "has_epoch) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)");
}

void SessionWriter::begin() {
    if (m_active) throw StoreError("import already in progress");
    if (m_store.mode() != SessionStore::Mode::ReadWrite) throw StoreError("session is open read-only");
    if (!m_insertSlice.handle()) prepare();
    sqliteExec(m_store.db(), "BEGIN IMMEDIATE");
    m_active = true;
    m_strings.clear();
    {
        SqliteStatement st(m_store.db(), "PRAGMA cache_size");
        m_savedCacheSize = st.step() ? std::optional<int64_t>(st.columnInt(0)) : std::nullopt;
    }
    if (m_savedCacheSize)
        sqliteExec(m_store.db(), "PRAGMA cache_size=" + std::to_string(-kImportCacheKiB));
}

void SessionWriter::useSmallCache(bool small) {
    if (m_active && m_savedCacheSize)
        sqliteExec(m_store.db(), "PRAGMA cache_size=" + std::to_string(-(small ? kSmallImportCacheKiB : kImportCacheKiB)));
}

void SessionWriter::restoreCacheSize() {
    if (!m_savedCacheSize) return;
    const int64_t size = *m_savedCacheSize;
    m_savedCacheSize.reset();
    sqliteExec(m_store.db(), "PRAGMA cache_size=" + std::to_string(size));
}

void SessionWriter::commit() {
    if (!m_active) return;
    sqliteExec(m_store.db(), "COMMIT");
    m_active = false;
    restoreCacheSize();
    m_store.checkpoint();  // the import is in the session file itself, not only in -wal
}

void SessionWriter::rollback() {
    if (!m_active) return;
    m_active = false;
    m_strings.clear();  // ids of rolled-back strings must not be reused
    sqliteExec(m_store.db(), "ROLLBACK");
    restoreCacheSize();
}

int64_t SessionWriter::addSource(const std::string &path, const std::string &format, int64_t sizeBytes) {
    sqlite3 *db = m_store.db();
    {
        // Re-import replaces the earlier import of this path. Slices, flows and counters hang off
        // tracks without foreign keys (speed), so they are removed explicitly first.
        SqliteStatement old(db, "SELECT id FROM source WHERE path = ?1");
        old.bind(1, std::string_view(path));
        if (old.step()) {
            const int64_t id = old.columnInt(0);
            SqliteStatement del(db,
                "DELETE FROM slice WHERE track_id IN (SELECT t.id FROM track t JOIN run r ON r.id = t.run_id WHERE r.source_id = ?1);"
                );
            del.bind(1, id); del.run();
            SqliteStatement delCost(db,
                "DELETE FROM slice_cost WHERE track_id IN (SELECT t.id FROM track t JOIN run r ON r.id = t.run_id WHERE r.source_id = ?1)");
            delCost.bind(1, id); delCost.run();
            SqliteStatement delC(db,
                "DELETE FROM counter_sample WHERE track_id IN (SELECT t.id FROM track t JOIN run r ON r.id = t.run_id WHERE r.source_id = ?1)");
            delC.bind(1, id); delC.run();
            SqliteStatement delM(db, "DELETE FROM metric_sample WHERE series_id IN (SELECT id FROM metric_series WHERE source_id = ?1)");
            delM.bind(1, id); delM.run();
            SqliteStatement delS(db, "DELETE FROM source WHERE id = ?1");  // cascades to runs, tracks, steps, flows, log
            delS.bind(1, id); delS.run();
        }
    }
    SqliteStatement ins(db, "INSERT INTO source(path, format, size_bytes, imported_at_ns) VALUES (?1,?2,?3,?4)");
    ins.bind(1, std::string_view(path));
    ins.bind(2, std::string_view(format));
    ins.bind(3, sizeBytes);
    ins.bind(4, int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count()));
    ins.run();
    return sqlite3_last_insert_rowid(db);
}

void SessionWriter::finishSource(int64_t sourceId, int64_t events, int64_t warnings, SourceStatus status) {
    SqliteStatement st(m_store.db(), "UPDATE source SET events = ?2, warnings = ?3, status = ?4 WHERE id = ?1");
    st.bind(1, sourceId);
    st.bind(2, events);
    st.bind(3, warnings);
    st.bind(4, statusName(status));
    st.run();
}

int64_t SessionWriter::addRun(int64_t sourceId, const RunInfo &run) {
    auto &st = m_insertRun;
    st.bind(1, sourceId);
    st.bind(2, std::string_view(run.name));
    st.bind(3, std::string_view(run.host));
    st.bind(4, std::string_view(run.framework));
    st.bind(5, std::string_view(run.device));
    st.bind(6, run.rank);
    st.bind(7, run.timeBaseNs);
    st.bind(8, int64_t(run.hasEpoch ? 1 : 0));
    st.run();
    return sqlite3_last_insert_rowid(m_store.db());
}

int64_t SessionWriter::addTrack(int64_t runId, const TrackInfo &track) {
    auto &st = m_insertTrack;
    st.bind(1, runId);
    st.bind(2, trackKindName(track.kind));
    st.bind(3, track.device);
    st.bind(4, std::string_view(track.name));
    st.bind(5, std::string_view(track.pid));
    st.bind(6, std::string_view(track.tid));
    st.bind(7, track.sortIndex);
    st.run();
    return sqlite3_last_insert_rowid(m_store.db());
}

int64_t SessionWriter::intern(std::string_view text) {
    if (auto it = m_strings.find(std::string(text)); it != m_strings.end()) return it->second;
    int64_t id;
    m_selectString.bind(1, text);
    if (m_selectString.step()) {
        id = m_selectString.columnInt(0);
        m_selectString.reset();
    } else {
        m_selectString.reset();
        m_insertString.bind(1, text);
        m_insertString.run();
        id = sqlite3_last_insert_rowid(m_store.db());
    }
    m_strings.emplace(std::string(text), id);
    return id;
}

int64_t SessionWriter::addSlice(const SliceRow &row) {
    auto &st = m_insertSlice;
    st.bind(1, row.trackId);
    st.bind(2, row.startNs);
    st.bind(3, row.durNs);
    st.bind(4, row.depth);
    st.bind(5, row.parentId);
    st.bind(6, row.nameId);
    st.bind(7, row.categoryId);
    st.bind(8, row.correlation);
    if (row.argsJson.empty()) st.bindNull(9); else st.bind(9, row.argsJson);
    st.run();
    return sqlite3_last_insert_rowid(m_store.db());
}

void SessionWriter::addSliceCost(const SliceCostRow &row) {
    if (!m_insertCost.handle())  // prepared on first use: a store built with early migrations only has no table
        m_insertCost = SqliteStatement(m_store.db(), "INSERT OR REPLACE INTO slice_cost(slice_id, track_id, start_ns, name_id, "
                                                     "flops, bytes, dtype, shapes) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)");
    auto &st = m_insertCost;
    st.bind(1, row.sliceId);
    st.bind(2, row.trackId);
    st.bind(3, row.startNs);
    st.bind(4, row.nameId);
    st.bind(5, row.flops);
    st.bind(6, row.bytes);
    st.bind(7, std::string_view(row.dtype));
    st.bind(8, std::string_view(row.shapes));
    st.run();
}

void SessionWriter::addFlow(int64_t runId, int64_t fromSliceId, int64_t toSliceId, std::optional<int64_t> categoryId) {
    auto &st = m_insertFlow;
    st.bind(1, runId);
    st.bind(2, fromSliceId);
    st.bind(3, toSliceId);
    st.bind(4, categoryId);
    st.run();
}

void SessionWriter::addCounterSample(int64_t trackId, int64_t tNs, double value) {
    auto &st = m_insertCounter;
    st.bind(1, trackId);
    st.bind(2, tNs);
    st.bind(3, value);
    st.run();
}

void SessionWriter::addStep(int64_t runId, int64_t step, int64_t startNs, int64_t durNs) {
    auto &st = m_insertStep;
    st.bind(1, runId);
    st.bind(2, step);
    st.bind(3, startNs);
    st.bind(4, durNs);
    st.run();
}

void SessionWriter::setStepSource(int64_t runId, StepSource source) {
    SqliteStatement st(m_store.db(), "UPDATE run SET step_source = ?2 WHERE id = ?1");
    st.bind(1, runId);
    st.bind(2, stepSourceName(source));
    st.run();
}

void SessionWriter::addToolVerdict(int64_t sourceId, const ToolVerdictInfo &v) {
    SqliteStatement st(m_store.db(), "INSERT INTO tool_verdict(source_id, tool, kind, input_pct, verdict, device_type, "
                                     "steps, top_ops) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)");
    st.bind(1, sourceId);
    st.bind(2, v.tool);
    st.bind(3, v.kind);
    if (v.inputPct) st.bind(4, *v.inputPct);
    st.bind(5, v.verdict);
    st.bind(6, v.deviceType);
    st.bind(7, v.steps);
    st.bind(8, v.topOpsJson);
    st.run();
}

int64_t SessionWriter::addMetricSeries(int64_t sourceId, const std::string &run, const std::string &name,
                                       std::optional<int64_t> device, const std::string &unit, int64_t periodNs) {
    SqliteStatement st(m_store.db(), "INSERT INTO metric_series(source_id, run, name, device, unit, period_ns) "
                                     "VALUES (?1,?2,?3,?4,?5,?6)");
    st.bind(1, sourceId);
    st.bind(2, std::string_view(run));
    st.bind(3, std::string_view(name));
    st.bind(4, device);
    st.bind(5, std::string_view(unit));
    st.bind(6, periodNs);
    st.run();
    return sqlite3_last_insert_rowid(m_store.db());
}

void SessionWriter::setMetricSeriesPeriod(int64_t seriesId, int64_t periodNs) {
    SqliteStatement st(m_store.db(), "UPDATE metric_series SET period_ns = ?2 WHERE id = ?1");
    st.bind(1, seriesId);
    st.bind(2, periodNs);
    st.run();
}

void SessionWriter::addMetricSample(int64_t seriesId, int64_t tNs, double value) {
    auto &st = m_insertMetricSample;
    st.bind(1, seriesId);
    st.bind(2, tNs);
    st.bind(3, value);
    st.run();
}

void SessionWriter::log(std::optional<int64_t> sourceId, Severity severity, ImportLogCode code, const std::string &file,
                        const std::string &position, const std::string &message) {
    // Prepared on first use: a writer on a session older than the code column (tests open one at an
    // early schema version) writes every other row.
    if (!m_insertLog.handle())
        m_insertLog = SqliteStatement(m_store.db(), "INSERT INTO import_log(source_id, severity, file, position, message, code) "
                                                    "VALUES (?1,?2,?3,?4,?5,?6)");
    auto &st = m_insertLog;
    st.bind(1, sourceId);
    st.bind(2, severityName(severity));
    st.bind(3, std::string_view(file));
    st.bind(4, std::string_view(position));
    st.bind(5, std::string_view(message));
    st.bind(6, importLogCodeName(code));
    st.run();
}

int64_t SessionWriter::firstFreeId(IdTable table) {
    SqliteStatement next(m_store.db(), table == IdTable::Slice ? "SELECT COALESCE(MAX(id), 0) + 1 FROM slice"
                                                               : "SELECT COALESCE(MAX(id), 0) + 1 FROM flow");
    return next.step() ? next.columnInt(0) : 1;
}

std::unique_ptr<BulkRowInserter> SessionWriter::bulkInserter(const std::string &module, std::string_view table,
                                                             const std::vector<std::string> &columns) {
    return std::make_unique<BulkRowInserter>(m_store.db(), module, table, columns);
}

} // namespace stepscope

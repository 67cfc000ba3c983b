#include "models/store/session_reader.h"

#include "models/text/printable_text.h"

#include <algorithm>
#include <iterator>

namespace stepscope {

namespace {
std::optional<int64_t> optInt(const SqliteStatement &st, int col) {
    return st.columnIsNull(col) ? std::nullopt : std::optional<int64_t>(st.columnInt(col));
}
} // namespace

std::vector<SourceRow> SessionReader::sources() const {
    SqliteStatement st(m_store.db(),
        "SELECT s.id, s.path, s.format, s.status, s.size_bytes, s.events, s.warnings, COALESCE(o.clock_offset_ns, 0) "
        "FROM source s LEFT JOIN source_setting o ON o.path = s.path ORDER BY s.id");
    std::vector<SourceRow> out;
    while (st.step())
        out.push_back({st.columnInt(0), st.columnText(1), st.columnText(2), st.columnText(3), st.columnInt(4),
                       st.columnInt(5), st.columnInt(6), st.columnInt(7)});
    return out;
}

namespace {
constexpr const char *kRunColumns =
    "SELECT r.id, r.source_id, r.name, r.host, r.framework, r.device, r.rank, "
    "r.time_base_ns + COALESCE(o.clock_offset_ns, 0), r.has_epoch, r.step_source "
    "FROM run r JOIN source s ON s.id = r.source_id LEFT JOIN source_setting o ON o.path = s.path ";

RunRow runRow(const SqliteStatement &st) {
    RunRow r;
    r.id = st.columnInt(0);
    r.sourceId = st.columnInt(1);
    r.name = st.columnText(2);
    r.host = st.columnText(3);
    r.framework = st.columnText(4);
    r.device = st.columnText(5);
    r.rank = optInt(st, 6);
    r.timeBaseNs = st.columnInt(7);
    r.hasEpoch = st.columnInt(8) != 0;
    if (!st.columnIsNull(9)) r.stepSource = stepSourceFromName(st.columnText(9));
    return r;
}
} // namespace

std::vector<RunRow> SessionReader::runs() const {
    SqliteStatement st(m_store.db(), std::string(kRunColumns) + "ORDER BY r.id");
    std::vector<RunRow> out;
    while (st.step()) out.push_back(runRow(st));
    return out;
}

std::optional<RunRow> SessionReader::run(int64_t runId) const {
    SqliteStatement st(m_store.db(), std::string(kRunColumns) + "WHERE r.id = ?1");
    st.bind(1, runId);
    if (!st.step()) return std::nullopt;
    return runRow(st);
}

bool SessionReader::singleRun() const {
    // LIMIT 2: the answer never needs more than two rows, however many runs the session holds.
    SqliteStatement st(m_store.db(), "SELECT count(*) FROM (SELECT 1 FROM run LIMIT 2)");
    return st.step() && st.columnInt(0) == 1;
}

std::vector<TrackRow> SessionReader::tracks(int64_t runId) const {
    SqliteStatement st(m_store.db(),
        "SELECT t.id, t.run_id, t.kind, t.name, t.pid, t.tid, t.device, t.sort_index, "
        "(SELECT count(*) FROM slice s WHERE s.track_id = t.id) "
        "FROM track t WHERE t.run_id = ?1 ORDER BY t.kind = 'gpu_stream' DESC, t.device, t.sort_index, t.id");
    st.bind(1, runId);
    std::vector<TrackRow> out;
    while (st.step())
        out.push_back({st.columnInt(0), st.columnInt(1), trackKindFromName(st.columnText(2)), st.columnText(3), st.columnText(4),
                       st.columnText(5), optInt(st, 6), st.columnInt(7), st.columnInt(8)});
    return out;
}

std::vector<StepRow> SessionReader::steps(int64_t runId) const {
    SqliteStatement st(m_store.db(),
        "SELECT st.step, st.start_ns + r.time_base_ns + COALESCE(o.clock_offset_ns, 0), st.dur_ns "
        "FROM step st JOIN run r ON r.id = st.run_id JOIN source s ON s.id = r.source_id "
        "LEFT JOIN source_setting o ON o.path = s.path WHERE st.run_id = ?1 ORDER BY st.start_ns");
    st.bind(1, runId);
    std::vector<StepRow> out;
    while (st.step()) out.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2)});
    return out;
}

std::vector<SliceCostRow> SessionReader::sliceCosts(int64_t trackId, int64_t fromNs, int64_t toNs) const {
    SqliteStatement st(m_store.db(), "SELECT slice_id, start_ns, name_id, flops, bytes, dtype, shapes FROM slice_cost "
                                     "WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 AND typeof(flops) IN ('real', 'integer') "
                                     "AND typeof(bytes) IN ('real', 'integer') AND typeof(start_ns) = 'integer' ORDER BY start_ns");
    st.bind(1, trackId);
    st.bind(2, fromNs);
    st.bind(3, toNs);
    std::vector<SliceCostRow> out;
    while (st.step()) {
        SliceCostRow r;
        r.sliceId = st.columnInt(0);
        r.trackId = trackId;
        r.startNs = st.columnInt(1);
        r.nameId = st.columnInt(2);
        r.flops = st.columnDouble(3);
        r.bytes = st.columnDouble(4);
        r.dtype = st.columnText(5);
        r.shapes = st.columnText(6);
        static constexpr const char *kDtypes[] = {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int32", "int64"};
        if (std::find(std::begin(kDtypes), std::end(kDtypes), r.dtype) == std::end(kDtypes)) r.dtype.clear();
        if (!r.plausible() || r.nameId < 0 || r.nameId > INT32_MAX) continue;
        r.shapes = printableText(r.shapes);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<ToolVerdictRow> SessionReader::toolVerdicts() const {
    SqliteStatement st(m_store.db(),
        "SELECT v.source_id, s.path, v.tool, v.kind, v.input_pct, v.verdict, v.device_type, v.steps, v.top_ops "
        // CROSS JOIN keeps tool_verdict (small, usually empty) the outer loop: never a scan of every source.
        "FROM tool_verdict v CROSS JOIN source s ON s.id = v.source_id ORDER BY s.path, v.id");
    std::vector<ToolVerdictRow> out;
    while (st.step()) {
        ToolVerdictRow r;
        r.sourceId = st.columnInt(0);
        r.path = st.columnText(1);
        r.tool = st.columnText(2);
        r.kind = st.columnText(3);
        if (!st.columnIsNull(4)) r.inputPct = st.columnDouble(4);
        r.verdict = st.columnText(5);
        r.deviceType = st.columnText(6);
        r.steps = st.columnInt(7);
        r.topOpsJson = st.columnText(8);
        out.push_back(std::move(r));
    }
    return out;
}

std::string SessionReader::sourcePath(int64_t sourceId) const {
    SqliteStatement st(m_store.db(), "SELECT path FROM source WHERE id = ?1");
    st.bind(1, sourceId);
    return st.step() ? st.columnText(0) : std::string();
}

int64_t SessionReader::sliceCount(std::optional<int64_t> runId) const {
    SqliteStatement st(m_store.db(), runId
        ? "SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id WHERE t.run_id = ?1"
        : "SELECT count(*) FROM slice");
    if (runId) st.bind(1, *runId);
    return st.step() ? st.columnInt(0) : 0;
}

NsRange SessionReader::runTimeRange(int64_t runId) const {
    SqliteStatement st(m_store.db(),
        "SELECT min(s.start_ns), max(s.start_ns + s.dur_ns) FROM slice s JOIN track t ON t.id = s.track_id "
        "WHERE t.run_id = ?1");
    st.bind(1, runId);
    if (!st.step() || st.columnIsNull(0)) return {};
    const int64_t lo = st.columnInt(0), hi = st.columnInt(1);
    if (const auto r = run(runId)) return {lo + r->timeBaseNs, hi + r->timeBaseNs};
    return {};
}

std::optional<int64_t> SessionReader::firstMetricTime() const {
    SqliteStatement st(m_store.db(), "SELECT min(t_ns) FROM v_metric");
    if (!st.step() || st.columnIsNull(0)) return std::nullopt;
    return st.columnInt(0);
}

std::vector<MetricSeriesRow> SessionReader::metricSeries() const {
    SqliteStatement st(m_store.db(),
        "SELECT ms.id, ms.source_id, ms.run, ms.name, ms.unit, ms.device, ms.period_ns, "
        "(SELECT count(*) FROM metric_sample m WHERE m.series_id = ms.id) FROM metric_series ms ORDER BY ms.id");
    std::vector<MetricSeriesRow> out;
    while (st.step())
        out.push_back({st.columnInt(0), st.columnInt(1), st.columnText(2), st.columnText(3), st.columnText(4),
                       optInt(st, 5), st.columnInt(6), st.columnInt(7)});
    return out;
}

std::vector<LogRow> SessionReader::importLog(int limit) const {
    SqliteStatement st(m_store.db(), "SELECT severity, file, position, message, code FROM import_log ORDER BY id LIMIT ?1");
    st.bind(1, int64_t(limit));
    std::vector<LogRow> out;
    while (st.step()) out.push_back({severityFromName(st.columnText(0)), st.columnText(1), st.columnText(2), st.columnText(3), st.columnText(4)});
    return out;
}

int64_t SessionReader::warningCount() const {
    SqliteStatement st(m_store.db(), "SELECT COALESCE(sum(warnings), 0) FROM source");
    return st.step() ? st.columnInt(0) : 0;
}

} // namespace stepscope

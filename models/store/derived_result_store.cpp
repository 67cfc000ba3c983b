#include "models/store/derived_result_store.h"

#include "models/store/sqlite_statement.h"

#include <sstream>

namespace stepscope {
namespace {

// Every row of `sql` as one line of tab-separated columns after `label` ("-" for NULL).
void appendKeyRows(std::ostringstream &out, sqlite3 *db, const char *label, const char *sql, const int64_t *runId = nullptr) {
    SqliteStatement st(db, sql);
    if (runId) st.bind(1, *runId);
    while (st.step()) {
        out << label;
        for (int c = 0; c < st.columnCount(); ++c) out << '\t' << (st.columnIsNull(c) ? std::string("-") : st.columnText(c));
        out << '\n';
    }
}

void deleteDerivedRows(sqlite3 *db, int64_t runId) {
    for (const char *table : {"analysis_result", "analysis_step", "step_breakdown", "gpu_gap", "op_stat", "finding"}) {
        SqliteStatement st(db, std::string("DELETE FROM ") + table + " WHERE run_id = ?1");
        st.bind(1, runId);
        st.run();
    }
}

void insertSteps(sqlite3 *db, int64_t runId, const std::vector<DerivedStepRow> &steps) {
    SqliteStatement step(db, "INSERT INTO analysis_step(run_id, ordinal, step, start_ns, end_ns, host_start_ns, host_end_ns) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    SqliteStatement part(db, "INSERT INTO step_breakdown(run_id, ordinal, category, ns) VALUES (?1, ?2, ?3, ?4)");
    for (size_t i = 0; i < steps.size(); ++i) {
        const DerivedStepRow &s = steps[i];
        step.bind(1, runId), step.bind(2, int64_t(i)), step.bind(3, s.step), step.bind(4, s.startNs), step.bind(5, s.endNs);
        step.bind(6, s.hostStartNs), step.bind(7, s.hostEndNs);
        step.run();
        for (const auto &[category, ns] : s.breakdownNs) {
            part.bind(1, runId), part.bind(2, int64_t(i)), part.bind(3, std::string_view(category)), part.bind(4, ns);
            part.run();
        }
    }
}

void insertGapsAndOps(sqlite3 *db, int64_t runId, const DerivedRunRows &rows) {
    SqliteStatement gap(db, "INSERT INTO gpu_gap(run_id, ordinal, start_ns, dur_ns, device, stream, cause, host_activity) "
                            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (size_t i = 0; i < rows.gaps.size(); ++i) {
        const DerivedGapRow &g = rows.gaps[i];
        gap.bind(1, runId), gap.bind(2, int64_t(i)), gap.bind(3, g.startNs), gap.bind(4, g.durNs), gap.bind(5, g.device);
        gap.bind(6, std::string_view(g.stream)), gap.bind(7, std::string_view(g.cause)), gap.bind(8, std::string_view(g.hostActivity));
        gap.run();
    }
    SqliteStatement op(db, "INSERT INTO op_stat(run_id, ordinal, name, device, calls, total_ns, self_ns, min_ns, max_ns) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (size_t i = 0; i < rows.ops.size(); ++i) {
        const DerivedOpRow &o = rows.ops[i];
        op.bind(1, runId), op.bind(2, int64_t(i)), op.bind(3, std::string_view(o.name)), op.bind(4, o.device);
        op.bind(5, o.calls), op.bind(6, o.totalNs), op.bind(7, o.selfNs), op.bind(8, o.minNs), op.bind(9, o.maxNs);
        op.run();
    }
}

void insertFindings(sqlite3 *db, int64_t runId, const std::vector<DerivedFindingRow> &findings) {
    SqliteStatement st(db, "INSERT INTO finding(run_id, ordinal, rule, severity, title, detail, recommendation, start_ns, "
                           "end_ns, steps, projected_step_ms, speedup) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    for (size_t i = 0; i < findings.size(); ++i) {
        const DerivedFindingRow &f = findings[i];
        st.bind(1, runId), st.bind(2, int64_t(i)), st.bind(3, std::string_view(f.rule));
        st.bind(4, std::string_view(f.severity)), st.bind(5, std::string_view(f.title));
        st.bind(6, std::string_view(f.detail)), st.bind(7, std::string_view(f.recommendation));
        st.bind(8, f.startNs), st.bind(9, f.endNs), st.bind(10, std::string_view(f.stepsJson));
        if (f.projectedStepMs) st.bind(11, *f.projectedStepMs);
        else st.bindNull(11);
        if (f.speedup) st.bind(12, *f.speedup);
        else st.bindNull(12);
        st.run();
    }
}

} // namespace

std::optional<StoredAnalysisBytes> DerivedResultStore::load(int64_t runId) const {
    SqliteStatement st(m_store.db(), "SELECT fingerprint, result FROM analysis_result WHERE run_id = ?1");
    st.bind(1, runId);
    if (!st.step()) return std::nullopt;
    return StoredAnalysisBytes{st.columnText(0), std::string(st.columnBlob(1))};
}

void DerivedResultStore::replace(SessionStore &store, int64_t runId, const DerivedRunRows &rows, std::chrono::milliseconds busyWait) {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    store.writeTransaction([&] {
        sqlite3 *db = store.db();
        deleteDerivedRows(db, runId);
        SqliteStatement st(db, "INSERT INTO analysis_result(run_id, fingerprint, inputs, computed_at_ns, result) "
                               "VALUES (?1, ?2, ?3, ?4, ?5)");
        st.bind(1, runId), st.bind(2, std::string_view(rows.fingerprint)), st.bind(3, std::string_view(rows.inputs));
        st.bind(4, now), st.bindBlob(5, rows.resultBytes.data(), rows.resultBytes.size());
        st.run();
        insertSteps(db, runId, rows.steps);
        insertGapsAndOps(db, runId, rows);
        insertFindings(db, runId, rows.findings);
    }, busyWait);
}

std::string DerivedResultStore::sharedKeyLines() const {
    std::ostringstream in;
    sqlite3 *db = m_store.db();
    appendKeyRows(in, db, "session", "SELECT COALESCE((SELECT value FROM session_setting WHERE key = 'session_id'), '')");
    appendKeyRows(in, db, "content", "SELECT (SELECT COALESCE(max(id), 0) FROM slice), (SELECT COALESCE(max(id), 0) FROM track), "
                                     "(SELECT COALESCE(max(id), 0) FROM run)");
    appendKeyRows(in, db, "source", "SELECT id, path, format, size_bytes, events, status, imported_at_ns FROM source ORDER BY id");
    appendKeyRows(in, db, "offset", "SELECT path, clock_offset_ns FROM source_setting WHERE clock_offset_ns != 0 ORDER BY path");
    appendKeyRows(in, db, "verdicts", "SELECT count(*), COALESCE(max(id), 0) FROM tool_verdict");
    appendKeyRows(in, db, "metrics", "SELECT count(*), COALESCE(max(id), 0) FROM metric_series");
    return in.str();
}

std::string DerivedResultStore::stepKeyLine(int64_t runId) const {
    std::ostringstream in;
    appendKeyRows(in, m_store.db(), "steps",
                  "SELECT count(*), min(step), max(step), total(start_ns), total(dur_ns) FROM step WHERE run_id = ?1", &runId);
    return in.str();
}

} // namespace stepscope

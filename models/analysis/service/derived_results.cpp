#include "models/analysis/service/derived_results.h"

#include "models/analysis/service/analysis_archive.h"
#include "models/analysis/engine/text_digest.h"
#include "models/store/sqlite_statement.h"

#include <charconv>
#include <chrono>
#include <sstream>

namespace stepscope {
namespace {

constexpr int kDerivedSchemaVersion = 6;  // the migration that made analysis_result

std::string optionalText(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "-"; }

// Every row of `sql` as one line of tab-separated columns after `label`.
void appendRows(std::ostringstream &out, sqlite3 *db, const char *label, const char *sql, const int64_t *runId = nullptr) {
    SqliteStatement st(db, sql);
    if (runId) st.bind(1, *runId);
    while (st.step()) {
        out << label;
        for (int c = 0; c < st.columnCount(); ++c) out << '\t' << (st.columnIsNull(c) ? std::string("-") : st.columnText(c));
        out << '\n';
    }
}

std::string jsonSteps(const std::vector<int64_t> &steps) {
    std::string s = "[";
    for (size_t i = 0; i < steps.size(); ++i) s += (i ? "," : "") + std::to_string(steps[i]);
    return s + "]";
}

void deleteRows(sqlite3 *db, int64_t runId) {
    for (const char *table : {"analysis_result", "analysis_step", "step_breakdown", "gpu_gap", "op_stat", "finding"}) {
        SqliteStatement st(db, std::string("DELETE FROM ") + table + " WHERE run_id = ?1");
        st.bind(1, runId);
        st.run();
    }
}

void writeSteps(sqlite3 *db, int64_t runId, const RunAnalysis &a) {
    SqliteStatement step(db, "INSERT INTO analysis_step(run_id, ordinal, step, start_ns, end_ns, host_start_ns, host_end_ns) "
                             "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    SqliteStatement part(db, "INSERT INTO step_breakdown(run_id, ordinal, category, ns) VALUES (?1, ?2, ?3, ?4)");
    const Breakdown &b = a.breakdown;
    for (size_t i = 0; i < a.steps.steps.size(); ++i) {
        const AnalysisStep &s = a.steps.steps[i];
        step.bind(1, runId), step.bind(2, int64_t(i)), step.bind(3, s.step), step.bind(4, s.start), step.bind(5, s.end);
        step.bind(6, s.hostStart), step.bind(7, s.hostEnd);
        step.run();
        if (i >= b.perStepNs.size()) continue;
        for (size_t t = 0; t < b.types.size() && t < b.perStepNs[i].size(); ++t) {
            part.bind(1, runId), part.bind(2, int64_t(i)), part.bind(3, std::string_view(b.types[t]));
            part.bind(4, b.perStepNs[i][t]);
            part.run();
        }
    }
}

void writeGapsAndOps(sqlite3 *db, int64_t runId, const RunAnalysis &a) {
    SqliteStatement gap(db, "INSERT INTO gpu_gap(run_id, ordinal, start_ns, dur_ns, device, stream, cause, host_activity) "
                            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    for (size_t i = 0; i < a.gaps.top.size(); ++i) {
        const GpuGap &g = a.gaps.top[i];
        gap.bind(1, runId), gap.bind(2, int64_t(i)), gap.bind(3, g.start), gap.bind(4, g.dur), gap.bind(5, int64_t(g.device));
        gap.bind(6, std::string_view(g.stream)), gap.bind(7, gapCauseName(g.cause)), gap.bind(8, std::string_view(g.hostActivity));
        gap.run();
    }
    SqliteStatement op(db, "INSERT INTO op_stat(run_id, ordinal, name, device, calls, total_ns, self_ns, min_ns, max_ns) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (size_t i = 0; i < a.ops.size(); ++i) {
        const OpStat &o = a.ops[i];
        op.bind(1, runId), op.bind(2, int64_t(i)), op.bind(3, std::string_view(o.name));
        op.bind(4, o.host() ? std::nullopt : std::optional<int64_t>(o.device));
        op.bind(5, o.count), op.bind(6, o.totalNs), op.bind(7, o.selfNs), op.bind(8, o.minNs), op.bind(9, o.maxNs);
        op.run();
    }
}

void writeFindings(sqlite3 *db, int64_t runId, const RunAnalysis &a) {
    SqliteStatement st(db, "INSERT INTO finding(run_id, ordinal, rule, severity, title, detail, recommendation, start_ns, "
                           "end_ns, steps, projected_step_ms, speedup) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    for (size_t i = 0; i < a.findings.size(); ++i) {
        const Finding &f = a.findings[i];
        const bool timed = f.startNs != 0 || f.endNs != 0;
        st.bind(1, runId), st.bind(2, int64_t(i)), st.bind(3, std::string_view(f.rule));
        st.bind(4, std::string_view(findingSeverityName(f.severity))), st.bind(5, std::string_view(f.title));
        st.bind(6, std::string_view(f.detail)), st.bind(7, std::string_view(f.recommendation));
        st.bind(8, timed ? std::optional<int64_t>(f.startNs) : std::nullopt);
        st.bind(9, timed ? std::optional<int64_t>(f.endNs) : std::nullopt);
        st.bind(10, std::string_view(jsonSteps(f.steps)));
        if (f.projection) st.bind(11, f.projection->stepTimeMs), st.bind(12, f.projection->speedup);
        else st.bindNull(11), st.bindNull(12);
        st.run();
    }
}

} // namespace

AnalysisOptions DerivedResults::sessionOptions(const SessionStore &store) {
    AnalysisOptions o;
    o.batchSizeSource = "session";
    const std::string v = store.setting("batch_size");
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && n > 0) o.batchSize = n;
    return o;
}

int DerivedResults::analyseStale(SessionStore &store, std::vector<std::string> *failures) {
    const CategoryRules rules = CategoryRules::load();
    const AnalysisOptions options = sessionOptions(store);
    const MetricCatalog metrics = MetricCatalog::load(store);
    const DerivedResultKeys keys(store, options, rules);
    int analysed = 0;
    for (const RunRow &run : SessionReader(store).runs()) {
        const DerivedResultKey k = keys.of(store, run);
        if (load(store, run.id, k)) continue;
        std::optional<RunAnalysis> analysis;
        try {
            analysis = RunAnalyzer(store, rules, &metrics).analyze(run, options);
        } catch (const StoreError &) {
            throw;
        } catch (const std::exception &e) {
            if (failures) failures->push_back("run " + run.name + ": " + e.what());
            continue;
        }
        save(store, run, k, *analysis);
        ++analysed;
    }
    return analysed;
}

DerivedResultKeys::DerivedResultKeys(const SessionStore &store, const AnalysisOptions &options, const CategoryRules &rules) {
    std::ostringstream in;
    in << "revision\t" << DerivedResults::kAnalysisRevision << "\tarchive\t" << AnalysisArchive::kFormatVersion << '\n';
    in << "rules\t" << rules.digest() << '\n';
    in << "options\tsteps\t" << optionalText(options.firstStep) << '\t' << optionalText(options.lastStep) << "\tbatch\t"
       << optionalText(options.batchSize) << '\t' << options.batchSizeSource << "\tdetect\t" << options.detectBatchSize
       << "\tpreset\t" << options.preset << '\n';
    sqlite3 *db = store.db();
    // Bound to this session: its own id and the extent of what the analysis reads (an analysis
    // copied in from another session, or kept across rows edited by hand, is not trusted).
    appendRows(in, db, "session", "SELECT COALESCE((SELECT value FROM session_setting WHERE key = 'session_id'), '')");
    appendRows(in, db, "content", "SELECT (SELECT COALESCE(max(id), 0) FROM slice), (SELECT COALESCE(max(id), 0) FROM track), "
                                  "(SELECT COALESCE(max(id), 0) FROM run)");
    appendRows(in, db, "source", "SELECT id, path, format, size_bytes, events, status, imported_at_ns FROM source ORDER BY id");
    appendRows(in, db, "offset", "SELECT path, clock_offset_ns FROM source_setting WHERE clock_offset_ns != 0 ORDER BY path");
    appendRows(in, db, "verdicts", "SELECT count(*), COALESCE(max(id), 0) FROM tool_verdict");
    appendRows(in, db, "metrics", "SELECT count(*), COALESCE(max(id), 0) FROM metric_series");
    m_shared = in.str();
}

DerivedResultKey DerivedResultKeys::of(const SessionStore &store, const RunRow &run) const {
    std::ostringstream in;
    in << m_shared;
    in << "run\t" << run.id << '\t' << run.sourceId << '\t' << run.name << '\t' << run.host << '\t' << run.framework << '\t'
       << run.device << '\t' << optionalText(run.rank) << '\t' << run.timeBaseNs << '\t' << run.hasEpoch << '\t'
       << (run.stepSource ? int(*run.stepSource) : -1) << '\n';
    appendRows(in, store.db(), "steps",
               "SELECT count(*), min(step), max(step), total(start_ns), total(dur_ns) FROM step WHERE run_id = ?1", &run.id);
    DerivedResultKey key;
    key.inputs = in.str();
    key.fingerprint = textDigest(key.inputs);
    return key;
}

namespace {
// What is stored as analysis_result.fingerprint: the inputs' digest sealed with the result's bytes,
// so that bytes swapped in under another row's fingerprint (an analysis copied from another
// session) do not pass for this run's.
std::string sealedFingerprint(const DerivedResultKey &key, std::string_view resultBytes) {
    return textDigest(key.fingerprint + '\t' + textDigest(resultBytes));
}
} // namespace

std::optional<RunAnalysis> DerivedResults::load(const SessionStore &store, int64_t runId, const DerivedResultKey &key,
                                                std::string *why) {
    auto absent = [&](const std::string &reason) -> std::optional<RunAnalysis> {
        if (why) *why = reason;
        return std::nullopt;
    };
    try {
        if (store.schemaVersion() < kDerivedSchemaVersion) return absent("the session predates stored analyses");
        SqliteStatement st(store.db(), "SELECT fingerprint, result FROM analysis_result WHERE run_id = ?1");
        st.bind(1, runId);
        if (!st.step()) return absent("no stored analysis");
        const std::string_view bytes = st.columnBlob(1);
        if (st.columnText(0) != sealedFingerprint(key, bytes))
            return absent("the stored analysis was computed from other inputs (or is not this session's)");
        return AnalysisArchive::decode(bytes);
    } catch (const ArchiveError &e) {
        return absent(e.what());
    } catch (const StoreError &e) {  // a damaged page under the stored analysis: analyse instead
        return absent(std::string("the stored analysis cannot be read: ") + e.what());
    }
}

void DerivedResults::save(SessionStore &store, const RunRow &run, const DerivedResultKey &key, const RunAnalysis &analysis,
                          std::chrono::milliseconds busyWait) {
    const std::string bytes = AnalysisArchive::encode(analysis);
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    store.writeTransaction([&] {
        sqlite3 *db = store.db();
        deleteRows(db, run.id);
        SqliteStatement st(db, "INSERT INTO analysis_result(run_id, fingerprint, inputs, computed_at_ns, result) "
                               "VALUES (?1, ?2, ?3, ?4, ?5)");
        const std::string sealed = sealedFingerprint(key, bytes);
        st.bind(1, run.id), st.bind(2, std::string_view(sealed)), st.bind(3, std::string_view(key.inputs));
        st.bind(4, now), st.bindBlob(5, bytes.data(), bytes.size());
        st.run();
        writeSteps(db, run.id, analysis);
        writeGapsAndOps(db, run.id, analysis);
        writeFindings(db, run.id, analysis);
    }, busyWait);
}

bool DerivedResults::trySave(SessionStore &store, const RunRow &run, const DerivedResultKey &key,
                             const RunAnalysis &analysis) noexcept {
    if (store.mode() == SessionStore::Mode::ReadOnly || store.schemaVersion() < kDerivedSchemaVersion) return false;
    try {
        save(store, run, key, analysis, std::chrono::milliseconds(100));
        return true;
    } catch (const std::exception &) {
        return false;  // a session that cannot be written keeps working: the next open analyses again
    }
}

} // namespace stepscope

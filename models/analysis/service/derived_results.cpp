#include "models/analysis/service/derived_results.h"

#include "models/analysis/service/analysis_archive.h"
#include "models/analysis/engine/text_digest.h"
#include "models/store/sqlite_statement.h"
#include "models/store/derived_result_store.h"

#include <chrono>
#include <sstream>

namespace stepscope {
namespace {

std::string optionalText(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : "-"; }

std::string jsonSteps(const std::vector<int64_t> &steps) {
    std::string s = "[";
    for (size_t i = 0; i < steps.size(); ++i) s += (i ? "," : "") + std::to_string(steps[i]);
    return s + "]";
}

// The rows users query (v_analysis_step, v_step_breakdown, v_gpu_gap, v_op_stat, v_finding).
void fillRows(DerivedRunRows &rows, const RunAnalysis &a) {
    const Breakdown &b = a.breakdown;
    for (size_t i = 0; i < a.steps.steps.size(); ++i) {
        const AnalysisStep &s = a.steps.steps[i];
        DerivedStepRow row{s.step, s.start, s.end, s.hostStart, s.hostEnd, {}};
        if (i < b.perStepNs.size())
            for (size_t t = 0; t < b.types.size() && t < b.perStepNs[i].size(); ++t) row.breakdownNs.emplace_back(b.types[t], b.perStepNs[i][t]);
        rows.steps.push_back(std::move(row));
    }
    for (const GpuGap &g : a.gaps.top)
        rows.gaps.push_back({g.start, g.dur, int64_t(g.device), g.stream, std::string(gapCauseName(g.cause)), g.hostActivity});
    for (const OpStat &o : a.ops)
        rows.ops.push_back({o.name, o.host() ? std::nullopt : std::optional<int64_t>(o.device), o.count, o.totalNs, o.selfNs, o.minNs, o.maxNs});
    for (const Finding &f : a.findings) {
        const bool timed = f.startNs != 0 || f.endNs != 0;
        DerivedFindingRow row{f.rule, findingSeverityName(f.severity), f.title, f.detail, f.recommendation,
                              timed ? std::optional<int64_t>(f.startNs) : std::nullopt,
                              timed ? std::optional<int64_t>(f.endNs) : std::nullopt, jsonSteps(f.steps), std::nullopt, std::nullopt};
        if (f.projection) row.projectedStepMs = f.projection->stepTimeMs, row.speedup = f.projection->speedup;
        rows.findings.push_back(std::move(row));
    }
}

} // namespace

DerivedResultKeys::DerivedResultKeys(const SessionStore &store, const AnalysisOptions &options, const CategoryRules &rules) {
    std::ostringstream in;
    in << "revision\t" << DerivedResults::kAnalysisRevision << "\tarchive\t" << AnalysisArchive::kFormatVersion << '\n';
    in << "rules\t" << rules.digest() << '\n';
    in << "options\tsteps\t" << optionalText(options.firstStep) << '\t' << optionalText(options.lastStep) << "\tbatch\t"
       << optionalText(options.batchSize) << '\t' << options.batchSizeSource << "\tdetect\t" << options.detectBatchSize
       << "\tpreset\t" << options.preset << '\n';
    // Bound to this session: its own id and the extent of what the analysis reads (an analysis
    // copied in from another session, or kept across rows edited by hand, is not trusted).
    in << DerivedResultStore(store).sharedKeyLines();
    m_shared = in.str();
}

DerivedResultKey DerivedResultKeys::of(const SessionStore &store, const RunRow &run) const {
    std::ostringstream in;
    in << m_shared;
    in << "run\t" << run.id << '\t' << run.sourceId << '\t' << run.name << '\t' << run.host << '\t' << run.framework << '\t'
       << run.device << '\t' << optionalText(run.rank) << '\t' << run.timeBaseNs << '\t' << run.hasEpoch << '\t'
       << (run.stepSource ? int(*run.stepSource) : -1) << '\n';
    in << DerivedResultStore(store).stepKeyLine(run.id);
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
        const DerivedResultStore stored(store);
        if (!stored.supported()) return absent("the session predates stored analyses");
        const std::optional<StoredAnalysisBytes> row = stored.load(runId);
        if (!row) return absent("no stored analysis");
        if (row->fingerprint != sealedFingerprint(key, row->resultBytes))
            return absent("the stored analysis was computed from other inputs (or is not this session's)");
        return AnalysisArchive::decode(row->resultBytes);
    } catch (const ArchiveError &e) {
        return absent(e.what());
    } catch (const StoreError &e) {  // a damaged page under the stored analysis: analyse instead
        return absent(std::string("the stored analysis cannot be read: ") + e.what());
    }
}

void DerivedResults::save(SessionStore &store, const RunRow &run, const DerivedResultKey &key, const RunAnalysis &analysis,
                          std::chrono::milliseconds busyWait) {
    DerivedRunRows rows;
    rows.resultBytes = AnalysisArchive::encode(analysis);
    rows.fingerprint = sealedFingerprint(key, rows.resultBytes);
    rows.inputs = key.inputs;
    fillRows(rows, analysis);
    DerivedResultStore::replace(store, run.id, rows, busyWait);
}

bool DerivedResults::trySave(SessionStore &store, const RunRow &run, const DerivedResultKey &key,
                             const RunAnalysis &analysis) noexcept {
    if (store.mode() == SessionStore::Mode::ReadOnly || !DerivedResultStore(store).supported()) return false;
    try {
        save(store, run, key, analysis, std::chrono::milliseconds(100));
        return true;
    } catch (const std::exception &) {
        return false;  // a session that cannot be written keeps working: the next open analyses again
    }
}

} // namespace stepscope

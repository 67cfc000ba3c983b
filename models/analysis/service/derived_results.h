#pragma once
// DerivedResults keeps each run's analysis in its session (DESIGN.md "Derived results are data",
// migration 6): the whole RunAnalysis as AnalysisArchive bytes in analysis_result, which is what a
// re-open reads instead of re-analysing, and the same results as rows for users' SQL — the steps on
// device time, the per-step breakdown, the GPU idle gaps, the op statistics and the findings with
// what fixing each is worth (views v_analysis_step, v_step_breakdown, v_gpu_gap, v_op_stat,
// v_finding). Both are written in one transaction, so they always describe the same analysis; the
// SQL is DerivedResultStore's (models/store). AnalysisService is the only caller.
//
// A stored analysis is used only when it was computed from the same inputs: its key is a digest of
// everything RunAnalyzer reads (the session's sources and clock offsets, the run, its steps, the
// other tools' verdicts, the metric series, the category rules, the options, the analysis revision).
// Anything else is recomputed and written over it. A stored analysis that cannot be read (another
// Stepscope's format, a damaged or crafted blob, a damaged page) is treated as absent: load() says why.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/store/session_store.h"

#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct DerivedResultKey {
    std::string inputs;       // what the analysis is computed from, as readable lines
    std::string fingerprint;  // textDigest(inputs)
};

// The keys of a session's runs for one set of options and rules. What every run shares (the
// session's sources, offsets, verdicts, metric series, the rules and options) is read once, at
// construction: keying N runs costs N small queries, not N scans of the sources.
class DerivedResultKeys {
public:
    DerivedResultKeys(const SessionStore &store, const AnalysisOptions &options, const CategoryRules &rules);
    DerivedResultKey of(const SessionStore &store, const RunRow &run) const;

private:
    std::string m_shared;
};

class DerivedResults {
public:
    // Raised whenever an analyzer changes what it computes from the same inputs, so that sessions
    // analysed by an older Stepscope are analysed again.
    // 2: the input-bound finding splits input and H2D; 3: advice in the run's framework, the replay as one
    // timeline, copies/syncs/allocations not counted as kernel launch (issue #32)
    static constexpr int kAnalysisRevision = 3;

    // One run's key (DerivedResultKeys for many runs).
    static DerivedResultKey key(const SessionStore &store, const RunRow &run, const AnalysisOptions &options,
                                const CategoryRules &rules) {
        return DerivedResultKeys(store, options, rules).of(store, run);
    }
    // The stored analysis of run `runId` if it was computed from `key`'s inputs; none when there is
    // none, it is stale, or it cannot be read (then `*why`, when given, says why).
    static std::optional<RunAnalysis> load(const SessionStore &store, int64_t runId, const DerivedResultKey &key,
                                           std::string *why = nullptr);
    // Writes `analysis` of `run` over what the session held for it. Throws StoreError (a read-only
    // session, a full disk); the session is then as it was.
    static void save(SessionStore &store, const RunRow &run, const DerivedResultKey &key, const RunAnalysis &analysis,
                     std::chrono::milliseconds busyWait = SessionConnection::kBusyTimeout);
    // save() when the session can be written, waiting at most 100 ms for another connection's
    // write (the window calls it: it must not freeze behind an import); false, and nothing
    // written, otherwise — the next open analyses again.
    static bool trySave(SessionStore &store, const RunRow &run, const DerivedResultKey &key,
                        const RunAnalysis &analysis) noexcept;
};

} // namespace stepscope

#pragma once
// DerivedResultStore is the store's side of a run's stored analysis (DESIGN.md "Derived results are
// data", migration 6): it reads and writes the rows of analysis_result, analysis_step,
// step_breakdown, gpu_gap, op_stat and finding (views v_analysis_step, v_step_breakdown, v_gpu_gap,
// v_op_stat, v_finding), and reads what an analysis' key is made of. It knows rows, not analyses:
// DerivedResults (models/analysis) turns a RunAnalysis into these rows and back, and is its only caller.

#include "models/store/session_store.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct DerivedStepRow {
    int64_t step = 0, startNs = 0, endNs = 0, hostStartNs = 0, hostEndNs = 0;
    std::vector<std::pair<std::string, int64_t>> breakdownNs;  // category -> ns, in the breakdown's type order
};

struct DerivedGapRow {
    int64_t startNs = 0, durNs = 0, device = 0;
    std::string stream, cause, hostActivity;
};

struct DerivedOpRow {
    std::string name;
    std::optional<int64_t> device;  // none for host ops
    int64_t calls = 0, totalNs = 0, selfNs = 0, minNs = 0, maxNs = 0;
};

struct DerivedFindingRow {
    std::string rule, severity, title, detail, recommendation;
    std::optional<int64_t> startNs, endNs;  // none when the finding names no time range
    std::string stepsJson;                  // [12,13]
    std::optional<double> projectedStepMs, speedup;
};

// One run's stored analysis as rows, with the sealed fingerprint of the inputs it was computed from
// and the whole result's bytes (AnalysisArchive) that a re-open reads back.
struct DerivedRunRows {
    std::string fingerprint, inputs, resultBytes;
    std::vector<DerivedStepRow> steps;
    std::vector<DerivedGapRow> gaps;
    std::vector<DerivedOpRow> ops;
    std::vector<DerivedFindingRow> findings;
};

struct StoredAnalysisBytes {
    std::string fingerprint, resultBytes;
};

class DerivedResultStore {
public:
    static constexpr int kSchemaVersion = 6;  // the migration that made analysis_result

    explicit DerivedResultStore(const SessionStore &store) : m_store(store) {}

    bool supported() const { return m_store.schemaVersion() >= kSchemaVersion; }
    // The stored fingerprint and bytes of run `runId`; none when it has none. Throws StoreError on a
    // damaged page.
    std::optional<StoredAnalysisBytes> load(int64_t runId) const;
    // Replaces everything stored for run `runId` by `rows`, in one write transaction of `store` (the
    // same session this reader was made for). Throws StoreError; the session is then as it was.
    static void replace(SessionStore &store, int64_t runId, const DerivedRunRows &rows,
                        std::chrono::milliseconds busyWait = SessionConnection::kBusyTimeout);

    // What every run's key shares, as tab-separated lines: the session id, the extent of the
    // session's content, its sources, non-zero clock offsets, tool verdicts and metric series.
    std::string sharedKeyLines() const;
    // What one run's key adds: its steps' count, range and sums, as one line after "steps".
    std::string stepKeyLine(int64_t runId) const;

private:
    const SessionStore &m_store;
};

} // namespace stepscope

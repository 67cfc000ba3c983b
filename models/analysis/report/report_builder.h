#pragma once
// ReportBuilder gathers what the `report` command and the GUI summary show, from the session alone:
// sources, runs, their steps (moved onto device time) and step-time statistics, and per run the full
// analysis of RunAnalyzer (breakdown, GPU busy, bottleneck, gaps, op stats, findings). Called by the
// CLI's report command; ReportFormatter turns the Report into text, JSON or markdown.

#include "models/analysis/engine/job_analysis.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/store/session_reader.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct StepTimeStats {
    double meanMs = 0, medianMs = 0, p95Ms = 0, minMs = 0, maxMs = 0;
};

struct RunReport {
    RunRow run;
    int64_t events = 0;
    int64_t tracks = 0;
    std::vector<StepRow> steps;
    StepTimeStats stepTime;
    std::optional<double> samplesPerSecond;
    std::optional<int64_t> batchSize;
    std::string batchSizeSource;  // cli, session, detected; empty when unknown
    bool stepsFromMarkers = true;  // false: no steps found, the whole trace counts as one step (analysis.steps.source says how steps were found)
    RunAnalysis analysis;
};

struct Report {
    std::vector<SourceRow> sources;
    std::vector<RunReport> runs;
    int64_t skippedFiles = 0;
    // Why there is no step analysis at all (no run with a trace), e.g. a metrics-only session;
    // empty when there are runs.
    std::string note;
    std::optional<JobAnalysis> job;  // when the runs are ranks of one job (job_analysis.h)
};

struct ReportOptions {
    std::optional<int64_t> firstStep, lastStep;  // --steps A-B (inclusive)
    std::optional<int64_t> batchSize;
    // "cli" or "session"; empty: "session" when batchSize equals the session's saved batch_size, else
    // "cli". Without batchSize the session's saved value applies, else one detected from input shapes.
    std::string batchSizeSource;
    std::string preset;     // extra breakdown preset: tensorflow or pytorch (empty: none)
    std::string rulesPath;  // category rules file; empty: $STEPSCOPE_RULES or the built-in one
};

class ReportBuilder {
public:
    explicit ReportBuilder(const SessionStore &store) : m_store(store) {}
    Report build(const ReportOptions &options = {}) const;

    static StepTimeStats stats(const std::vector<StepRow> &steps);

private:
    const SessionStore &m_store;
};

} // namespace stepscope

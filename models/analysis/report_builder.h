#pragma once
// ReportBuilder gathers what the `report` command and the GUI summary show, from the session alone:
// sources, runs, their steps and step-time statistics. Later analysis (breakdown, gaps, op stats,
// findings) adds to the same Report. ReportFormatter turns it into text, JSON or markdown.

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
    bool stepsFromMarkers = true;  // false: no step markers, the whole trace counts as one step
};

struct Report {
    std::vector<SourceRow> sources;
    std::vector<RunReport> runs;
    int64_t skippedFiles = 0;
};

struct ReportOptions {
    std::optional<int64_t> firstStep, lastStep;  // --steps A-B (inclusive)
    std::optional<int64_t> batchSize;
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

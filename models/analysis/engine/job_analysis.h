#pragma once
// JobAnalyzer: the runs of a report that are ranks of one data-parallel job (run.rank set on two or
// more runs) seen together. Ranks are aligned by step number (by order when they number their steps
// differently, said in a note); per rank its step time, verdict and the time it waits in each step's
// first collective; a straggler is the rank that keeps arriving last at that collective while the
// others spin in it — its cause is the category that costs it more than the other ranks on its own
// rank, its cost the others' wait. Waiting ranks get a finding naming the straggler. Called only by
// AnalysisService (the report's job, and the session's job the views show); read by ReportFormatter
// and the job view.

#include "models/analysis/engine/run_analysis.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct RunRow;
struct SourceRow;

// One run that may be a rank: its row (run.rank) and its analysis (findings may be added to it).
struct JobMember {
    const RunRow *run = nullptr;
    RunAnalysis *analysis = nullptr;
};

struct JobRankRow {
    int64_t rank = 0;
    std::string run;
    size_t runIndex = 0;           // into the members given (Report::runs)
    double stepTimeMs = 0;         // the rank's mean step time
    std::string bottleneck;        // the rank's own verdict
    double collectiveWaitMs = 0;   // mean per aligned step: time spent waiting in the first collective
};

struct JobStraggler {
    int64_t rank = 0;
    std::string run;
    std::string cause;             // a category name
    double lateMsPerStep = 0;      // what it costs the job: the others' wait, averaged over the steps
    int64_t lateSteps = 0;         // aligned steps in which it arrived last
    double causeExcessMsPerStep = 0;  // its cause's time per step above the other ranks' median
    // "rank 2", or "rank 2 (worker-7)" when its run has a name of its own.
    std::string named() const {
        const std::string r = "rank " + std::to_string(rank);
        return run.empty() || run == r ? r : r + " (" + run + ")";
    }
};

// The job's critical path through the collective joins (issue #33): per aligned step the rank that
// arrived last at the first collective — every rank waits there for it, so its work before the join
// sets the job's step — and that rank's own critical path up to the join, by category.
struct JobCriticalPath {
    std::vector<int64_t> rankPerStep;  // per aligned step; -1 where the step has no collective
    int64_t rank = -1;                 // the rank that set the most steps
    std::string run;
    int64_t stepsSet = 0;              // how many
    double beforeJoinMsMean = 0;       // its path's length before the join, over those steps
    std::array<int64_t, kCategoryCount> beforeJoinNs{};  // by category, over those steps
    std::vector<NamedDuration> topEvents;  // the events longest on that rank's path (its run's)
    double topEventsSteps = 1;             // steps those were summed over (for per-step figures)
};

struct JobAnalysis {
    int ranks = 0;
    double meanStepMs = 0, medianStepMs = 0;  // the job's step: the slowest rank's, per aligned step
    std::string bottleneck;                   // root cause: the straggler's cause, else the common verdict
    std::optional<int64_t> bottleneckRank;
    std::vector<JobStraggler> stragglers;
    std::vector<JobRankRow> ranksTable;       // by rank
    bool alignedByOrder = false;
    std::vector<int64_t> alignedSteps;        // the lowest rank's step numbers, in alignment order
    // [row of ranksTable][aligned step]: index into that run's analysed steps
    std::vector<std::vector<size_t>> stepIndex;
    std::vector<std::string> notes;           // alignment, missing ranks, duplicate ranks
    std::optional<JobCriticalPath> criticalPath;  // when ranks meet in collectives and have critical paths
};

// What the job says about one rank: the straggler's or a waiting rank's finding, and for a waiting
// rank whose own verdict is collective, the symptom note that goes after its bottleneck evidence.
struct JobRankNote {
    std::optional<Finding> finding;
    std::string symptom;
};

class JobAnalyzer {
public:
    // Nothing when fewer than two runs carry a rank. With addFindings, the straggler and the ranks
    // waiting for it get a finding (first in their list) naming it.
    static std::optional<JobAnalysis> analyze(const std::vector<JobMember> &members, const std::vector<SourceRow> &sources,
                                              bool addFindings);
    // The note for one row of the job's ranks table (nothing without a straggler); what
    // analyze(..., addFindings) adds, for views that show the shared analyses unchanged.
    static JobRankNote noteFor(const JobAnalysis &job, const JobRankRow &row, const RunAnalysis &analysis);
};

} // namespace stepscope

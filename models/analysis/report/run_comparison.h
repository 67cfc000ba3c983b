#pragma once
// RunComparison answers "did the change work": two analysed runs (a base and a new one, each a
// RunReport over its own steps) side by side — step time and throughput, the mean time per step of
// every category, every op matched by name and device (host ops on device -1) with its time per step,
// and the findings resolved, new or kept, by rule. Runs of different lengths compare per-step means;
// each side says how many steps it has. Pure: no store access. Built by `stepscope compare` and the
// GUI's compare view; ComparisonFormatter renders it.

#include "models/analysis/report/report_builder.h"

#include <map>
#include <string>
#include <vector>

namespace stepscope {

struct ComparedRun {
    std::string label;  // what the user named (a path), or the session's file name
    std::string run;    // the run's name
    int64_t steps = 0;
    bool stepsFromMarkers = true;
    StepTimeStats stepTime;
    std::optional<double> samplesPerSecond;
    std::optional<int64_t> batchSize;
    std::string bottleneck;
    double gpuBusyPct = 0;
    bool gpuTraced = false;
    std::vector<std::pair<int64_t, int64_t>> stepStarts;  // (step number, device-time start, absolute ns)
};

struct CategoryDelta {
    Category category = Category::Other;
    double baseMs = 0, newMs = 0;  // mean per step
    double deltaMs() const { return newMs - baseMs; }
};

struct OpDelta {
    enum class Status { Same, Changed, New, Gone };
    std::string name;
    int device = -1;                       // -1: host
    int64_t baseCount = 0, newCount = 0;
    double baseTotalMs = 0, newTotalMs = 0;  // over each side's steps
    double baseMsPerStep = 0, newMsPerStep = 0;
    Status status = Status::Same;
    double deltaMs() const { return newMsPerStep - baseMsPerStep; }  // per step
    bool host() const { return device < 0; }
};

struct RunComparison {
    ComparedRun base, next;  // "next" is the new run (new is a keyword)
    double stepTimeChangePct = 0;                  // of the mean step time
    std::optional<double> samplesPerSecondChangePct;  // null without a batch size on both sides
    std::vector<CategoryDelta> categories;         // every category, in DESIGN.md order
    std::vector<OpDelta> ops;                      // by |delta per step|, largest first
    std::vector<std::string> resolved, added, kept;  // rules of findings other than "info"
    // Rules found in both runs at a lower severity in the new one ("reduced (high → low)"): counted
    // with the resolved ones, never as kept.
    struct Reduced {
        std::string rule;
        FindingSeverity from = FindingSeverity::Info, to = FindingSeverity::Info;
        std::string text() const;  // "rule (high → low)"
    };
    std::vector<Reduced> reduced;
    std::map<std::string, std::string> titles;       // rule -> a finding's title
    std::vector<std::string> notes;                // what the reader must know (whole runs, lengths)

    static const char *statusName(OpDelta::Status s);
    // A change within this share of the op's time per step, or within kSameMs per step, is "same".
    static constexpr double kSameShare = 0.01;
    static constexpr double kSameMs = 0.01;

    static RunComparison compare(const RunReport &base, const std::string &baseLabel, const RunReport &next,
                                 const std::string &nextLabel);
};

} // namespace stepscope

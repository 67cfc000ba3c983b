#pragma once
// compareInputs: what `stepscope compare` and the GUI's Compare With… share — each side (anything
// `report` takes) opened or imported on its own, analysed with the same options, one run picked
// from each (by name when a side holds several), and the RunComparison of the two. Messages naming
// the side, its path and the reason go to io.err.

#include "app/cli/command_line.h"
#include "importers/logdir/session_importer.h"
#include "models/analysis/report/run_comparison.h"
#include "models/concurrency/cancel_token.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::cli {

struct CompareInputs {
    std::string base;
    std::optional<std::string> baseRun;
    std::string next;
    std::optional<std::string> nextRun;
    // What the comparison calls each side (default: its path), e.g. the logdir a session was made from.
    std::optional<std::string> baseLabel, nextLabel;
    ImportOptions import{};  // --jobs, for sides that are imported
    CancelToken cancel{};  // raised: stops an import, or before the next side (GUI)
};

// The runs each side holds, in the order the report lists them (empty: the side was not analysed).
// A window offers them when a side holds several and none was named.
struct CompareRuns {
    std::vector<std::string> base, next;
};

// Ok or Partial with `out` filled; Usage or Unreadable (message printed) otherwise. `inputPaths`
// receives every file read on both sides (an output must be none of them); `runs` the runs of
// every side that was analysed, whether or not the comparison could be made.
int compareInputs(const CompareInputs &in, const ReportOptions &options, Streams io, RunComparison &out,
                  std::vector<std::string> *inputPaths = nullptr, CompareRuns *runs = nullptr);

} // namespace stepscope::cli

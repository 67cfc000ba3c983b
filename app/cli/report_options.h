#pragma once
// The analysis options `report` and `compare` share: --steps A-B, --batch-size N, --preset, --rules,
// checked whole (a usage error names the argument); and the batch size the user saved in a session
// (the GUI field), which applies when none is given.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "models/analysis/report/report_builder.h"

#include <string>

namespace stepscope::cli {

inline constexpr int64_t kMaxBatchSize = 1'000'000'000;

// False (message on io.err, prefixed "stepscope COMMAND: ") when an option is malformed.
bool readReportOptions(const ArgumentList &a, const std::string &command, Streams io, ReportOptions &options);

// The session's saved batch_size when options has none; unreadable settings are ignored.
void applySavedBatchSize(const SessionStore &store, ReportOptions &options);

// True when the session holds a step numbered first..last (a session without step markers holds
// step 0, the whole trace).
bool hasSteps(const SessionStore &store, int64_t first, int64_t last);
// "it has steps 1-30", for the message when hasSteps() is false.
std::string stepsHeld(const SessionStore &store);

} // namespace stepscope::cli

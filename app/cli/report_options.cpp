#include "app/cli/report_options.h"

#include "models/text/printable_text.h"
#include "models/store/session_reader.h"

#include <algorithm>
#include <optional>
#include <ostream>

namespace stepscope::cli {

bool readReportOptions(const ArgumentList &a, const std::string &command, Streams io, ReportOptions &options) {
    if (const auto steps = a.value("--steps")) {
        int64_t first = 0, last = 0;
        if (!parseStepRange(*steps, first, last)) {
            io.err << "stepscope " << command << ": --steps wants A-B (e.g. 10-20), got '" << printableText(*steps) << "'\n";
            return false;
        }
        options.firstStep = first;
        options.lastStep = last;
    }
    if (const auto bs = a.value("--batch-size")) {
        const auto v = parseInteger(*bs, 1, kMaxBatchSize);
        if (!v) {
            io.err << "stepscope " << command << ": --batch-size wants a whole number from 1 to " << kMaxBatchSize
                   << ", got '" << printableText(*bs) << "'\n";
            return false;
        }
        options.batchSize = *v;
        options.batchSizeSource = "cli";
    }
    if (const auto preset = a.value("--preset")) options.preset = *preset;
    if (const auto rules = a.value("--rules")) options.rulesPath = *rules;
    return true;
}

void applySavedBatchSize(const SessionStore &store, ReportOptions &options) {
    if (options.batchSize) return;
    try {
        if (const auto saved = parseInteger(store.setting("batch_size"), 1, kMaxBatchSize)) options.batchSize = *saved;
    } catch (const std::exception &) {
    }
}

bool hasSteps(const SessionStore &store, int64_t first, int64_t last) {
    SessionReader reader(store);
    bool any = false;
    for (const RunRow &run : reader.runs())
        for (const StepRow &s : reader.steps(run.id)) {
            any = true;
            if (s.step >= first && s.step <= last) return true;
        }
    return !any && first <= 0 && last >= 0;  // no step markers: the whole trace is step 0
}

std::string stepsHeld(const SessionStore &store) {
    SessionReader reader(store);
    std::optional<int64_t> lo, hi;
    for (const RunRow &run : reader.runs())
        for (const StepRow &s : reader.steps(run.id)) {
            lo = std::min(lo.value_or(s.step), s.step);
            hi = std::max(hi.value_or(s.step), s.step);
        }
    if (!lo) return "it has no step markers: the whole trace is step 0";
    return *lo == *hi ? "it has step " + std::to_string(*lo) : "it has steps " + std::to_string(*lo) + "-" + std::to_string(*hi);
}

} // namespace stepscope::cli

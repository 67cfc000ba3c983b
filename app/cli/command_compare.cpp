// `stepscope compare BASE NEW [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]
// [--base-run NAME] [--new-run NAME]`: each side is anything `report` takes (logdir, trace, session);
// each is imported and analysed on its own (the same --steps and --batch-size on both), one run
// picked from each (by name when a side holds several), and RunComparison says what moved.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/cli/output_file.h"
#include "app/cli/compare_inputs.h"
#include "app/cli/report_options.h"
#include "models/analysis/report/comparison_formatter.h"
#include "models/text/printable_text.h"

#include <ostream>

namespace stepscope::cli {

namespace {

struct Side {
    const char *role;           // "base" or "new"
    std::string path;
    std::optional<std::string> runName;
    std::optional<InputSession> session;
    Report report;
    const RunReport *run = nullptr;
    std::vector<std::string> *runNames = nullptr;  // receives the side's runs, when asked
};

// Imports, analyses and picks the run of one side; an exit code when it cannot.
std::optional<int> load(Side &side, const ReportOptions &given, const ImportOptions &import, const CancelToken &cancel,
                        Streams io) {
    side.session.emplace(InputSession::open({side.path}, io, import, cancel));
    if (!side.session->store()) {
        io.err << "stepscope compare: the " << side.role << " side (" << printableText(side.path) << ") could not be read\n";
        return Unreadable;
    }
    ReportOptions options = given;
    if (options.firstStep && !hasSteps(*side.session->store(), *options.firstStep, *options.lastStep)) {
        io.err << "stepscope compare: no steps " << *options.firstStep << "-" << *options.lastStep << " in the "
               << side.role << " side (" << printableText(side.path) << "; " << stepsHeld(*side.session->store()) << ")\n";
        return Usage;
    }
    applySavedBatchSize(*side.session->store(), options);
    if (cancel.cancelled()) return Unreadable;  // closed meanwhile: no analysis
    try {
        side.report = ReportBuilder(*side.session->store()).build(options);
    } catch (const StoreError &e) {
        io.err << "stepscope compare: " << printableText(side.path) << ": " << e.what() << "\n";
        return Unreadable;
    } catch (const std::runtime_error &e) {
        io.err << "stepscope compare: " << e.what() << "\n";
        return Usage;
    }
    const auto &runs = side.report.runs;
    if (runs.empty()) {
        io.err << "stepscope compare: the " << side.role << " side (" << printableText(side.path)
               << ") holds no trace to analyse" << (side.report.note.empty() ? "" : ": " + side.report.note) << "\n";
        return Unreadable;
    }
    std::string names;
    for (const RunReport &r : runs) {
        if (side.runNames) side.runNames->push_back(r.run.name);
        names += (names.empty() ? "" : ", ") + printableText(r.run.name);
        if (side.runName && r.run.name == *side.runName) side.run = &r;
    }
    if (!side.runName && runs.size() == 1) side.run = &runs.front();
    if (!side.run) {
        io.err << "stepscope compare: the " << side.role << " side (" << printableText(side.path) << ") "
               << (side.runName ? "has no run '" + printableText(*side.runName) + "'" : "holds " + std::to_string(runs.size()) + " runs")
               << " (" << names << "): choose one with --" << side.role << "-run NAME\n";
        return Usage;
    }
    // An empty trace ({"traceEvents":[]}) is nothing to compare with: no "100 % faster".
    if (side.run->analysis.steps.steps.empty() || side.run->analysis.steps.totalNs() <= 0) {
        io.err << "stepscope compare: the " << side.role << " side (" << printableText(side.path) << ") has nothing to compare: run '"
               << printableText(side.run->run.name) << "' holds no steps and no timed events\n";
        return Unreadable;
    }
    return std::nullopt;
}

} // namespace

int compareInputs(const CompareInputs &in, const ReportOptions &options, Streams io, RunComparison &out,
                  std::vector<std::string> *inputPaths, CompareRuns *runs) {
    Side base{"base", in.base, in.baseRun, {}, {}, nullptr, runs ? &runs->base : nullptr};
    Side next{"new", in.next, in.nextRun, {}, {}, nullptr, runs ? &runs->next : nullptr};
    // A side that merely needs a choice (several runs) does not stop the other from being read: both
    // sides' runs are named at once.
    std::optional<int> failed;
    for (Side *side : {&base, &next})
        if (const auto code = load(*side, options, in.import, in.cancel, io)) {
            if (*code != Usage) return *code;
            failed = failed.value_or(*code);
        }
    if (failed) return *failed;
    out = RunComparison::compare(*base.run, in.baseLabel.value_or(base.path), *next.run, in.nextLabel.value_or(next.path));
    if (inputPaths) {
        *inputPaths = base.session->inputPaths();
        for (const std::string &p : next.session->inputPaths()) inputPaths->push_back(p);
    }
    return std::max(base.session->exitCode(), next.session->exitCode());
}

int runCompare(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--format", "--steps", "--batch-size", "-o", "--output", "--base-run", "--new-run", "--preset", "--rules", "--jobs"}, {"--follow-links"});
    if (!a.ok() || a.positional().size() != 2) {
        io.err << "stepscope compare: "
               << (a.ok() ? "usage: stepscope compare BASE NEW [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]"
                          : a.error())
               << "\n";
        return Usage;
    }
    const std::string format = a.value("--format").value_or("text");
    if (format != "text" && format != "json" && format != "markdown") {
        io.err << "stepscope compare: unknown format '" << printableText(format) << "' (text, json or markdown)\n";
        return Usage;
    }
    ReportOptions options;
    if (!readReportOptions(a, "compare", io, options)) return Usage;
    ImportOptions importOptions;
    if (!readImportOptions(a, "compare", io, importOptions)) return Usage;
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (output)
        if (const std::string why = OutputFile::refuseIfInput(*output, a.positional()); !why.empty()) {
            io.err << "stepscope compare: " << why << "\n";
            return Usage;
        }
    RunComparison c;
    std::vector<std::string> inputs;
    const int code = compareInputs({a.positional()[0], a.value("--base-run"), a.positional()[1], a.value("--new-run"), {}, {}, importOptions},
                                   options, io, c, &inputs);
    if (code != Ok && code != Partial) return code;
    const std::string text = format == "json" ? ComparisonFormatter::json(c)
                           : format == "markdown" ? ComparisonFormatter::markdown(c)
                                                  : ComparisonFormatter::text(c);
    if (output) {
        if (const std::string why = OutputFile::refuseIfInput(*output, inputs); !why.empty()) {
            io.err << "stepscope compare: " << why << "\n";
            return Usage;
        }
        std::string error;
        if (!OutputFile::write(*output, text, error)) {
            io.err << "stepscope compare: " << error << "\n";
            return Unreadable;
        }
    } else {
        io.out << text;
    }
    return code;
}

} // namespace stepscope::cli

// `stepscope report PATH... [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]
// [--screenshots DIR]`: with --screenshots, one annotated picture per finding (EvidencePack), linked
// from the markdown (or text) report.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/cli/output_file.h"
#include "app/cli/report_options.h"
#include "app/gui/evidence_pack.h"
#include "models/analysis/report/report_formatter.h"
#include "models/text/printable_text.h"
#include "models/store/session_reader.h"

#include <ostream>

namespace stepscope::cli {

int runReport(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--format", "--steps", "--batch-size", "-o", "--output", "--screenshots", "--preset", "--rules", "--run", "--jobs"}, {"--follow-links"});
    if (!a.ok() || a.positional().empty()) {
        io.err << "stepscope report: " << (a.ok() ? "usage: stepscope report PATH... [--format text|json|markdown]" : a.error())
               << "\n";
        return Usage;
    }
    const std::string format = a.value("--format").value_or("text");
    if (format != "text" && format != "json" && format != "markdown") {
        io.err << "stepscope report: unknown format '" << format << "' (text, json or markdown)\n";
        return Usage;
    }
    ReportOptions options;
    if (!readReportOptions(a, "report", io, options)) return Usage;
    ImportOptions importOptions;
    if (!readImportOptions(a, "report", io, importOptions)) return Usage;
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (output) {
        if (const std::string why = OutputFile::refuseIfInput(*output, a.positional()); !why.empty()) {
            io.err << "stepscope report: " << why << "\n";
            return Usage;
        }
    }
    InputSession session = InputSession::open(a.positional(), io, importOptions);
    if (!session.store()) return session.exitCode();
    if (options.firstStep && !hasSteps(*session.store(), *options.firstStep, *options.lastStep)) {
        io.err << "stepscope report: no steps " << *a.value("--steps") << " in the session (" << stepsHeld(*session.store())
               << ")\n";
        return Usage;
    }
    applySavedBatchSize(*session.store(), options);
    Report report;
    try {
        report = ReportBuilder(*session.store()).build(options);
    } catch (const StoreError &e) {
        io.err << "stepscope report: " << e.what() << "\n";
        return Unreadable;
    } catch (const std::runtime_error &e) {
        // A bad rules file or preset: the message names the file, line and reason.
        io.err << "stepscope report: " << e.what() << "\n";
        return Usage;
    }
    std::string text = format == "json" ? ReportFormatter::json(report)
                     : format == "markdown" ? ReportFormatter::markdown(report)
                                            : ReportFormatter::text(report);
    if (const auto dir = a.value("--screenshots")) {
        std::string error;
        const auto shots = gui::EvidencePack::write(session.store()->path(), report, *dir, &error);
        if (!error.empty()) {
            io.err << "stepscope report: --screenshots: " << error << "\n";
            return Unreadable;
        }
        const auto reportDir = output ? std::filesystem::absolute(*output).parent_path() : std::filesystem::current_path();
        if (format == "markdown") text += gui::EvidencePack::markdown(shots, reportDir);
        else if (format == "text") text += gui::EvidencePack::text(shots, reportDir);
        if (io.progress) io.err << "wrote " << shots.size() << " screenshot(s) to " << *dir << "\n";
    }
    if (output) {
        std::string error;
        if (const std::string why = OutputFile::refuseIfInput(*output, session.inputPaths()); !why.empty()) {
            io.err << "stepscope report: " << why << "\n";
            return Usage;
        }
        if (!OutputFile::write(*output, text, error)) {
            io.err << "stepscope report: " << error << "\n";
            return Unreadable;
        }
    } else {
        io.out << text;
    }
    return session.exitCode();
}

} // namespace stepscope::cli

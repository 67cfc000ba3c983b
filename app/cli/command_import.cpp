// `stepscope import PATH... -o S.stepscope [--offset SOURCE=±DURATION]...`: builds or updates a
// session file and prints a summary. --offset shifts one source on the absolute time axis (saved in
// the session, kept across re-imports); with no PATH it only changes offsets of an existing session.

#include "app/cli/argument_list.h"
#include "app/cli/clock_offset.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/cli/output_file.h"
#include "app/cli/temp_session.h"
#include "importers/logdir/path_problem.h"
#include "models/analysis/service/derived_results.h"
#include "models/text/duration_text.h"
#include "models/text/printable_text.h"
#include "models/store/session_reader.h"
#include "models/analysis/service/analysis_service.h"

#include <sys/stat.h>

#include <ostream>

namespace stepscope::cli {

namespace {

constexpr const char *kUsage = "usage: stepscope import PATH... -o S.stepscope [--offset SOURCE=±DURATION]...";

// Resolves every spec to one source; prints why not and returns false when any fails (then
// nothing is applied).
bool applyOffsets(SessionStore &store, const std::vector<OffsetSpec> &specs, Streams io) {
    SessionReader reader(store);
    std::vector<std::string> paths;
    for (const SourceRow &s : reader.sources()) paths.push_back(s.path);
    std::vector<std::pair<std::string, int64_t>> resolved;
    bool ok = true;
    for (const OffsetSpec &spec : specs) {
        const auto matches = ClockOffset::match(paths, spec.source);
        if (matches.size() == 1) {
            resolved.emplace_back(matches.front(), spec.offsetNs);
            continue;
        }
        ok = false;
        io.err << "stepscope import: --offset: " << (matches.empty() ? "no source matches '" : "'") << spec.source
               << (matches.empty() ? "'" : "' is ambiguous") << "; sources in the session:\n";
        for (const std::string &p : matches.empty() ? paths : matches) io.err << "  " << printableText(p) << "\n";
    }
    if (!ok) return false;
    for (const auto &[path, ns] : resolved) {
        const int64_t before = store.clockOffsetNs(path);
        store.setClockOffsetNs(path, ns);
        io.out << "clock offset: " << printableText(path) << " " << DurationText::format(ns);
        if (before != ns) io.out << " (was " << DurationText::format(before) << ")";
        io.out << "\n";
    }
    return true;
}

// Traces without a Unix-epoch anchor cannot line up with wall-clock metrics by themselves.
void noteUnanchoredTraces(const SessionStore &store, Streams io) {
    SessionReader reader(store);
    if (reader.metricSeries().empty()) return;
    std::vector<SourceRow> sources = reader.sources();
    for (const RunRow &run : reader.runs()) {
        if (run.hasEpoch) continue;
        for (const SourceRow &s : sources)
            if (s.id == run.sourceId)
                io.out << "note: " << printableText(s.path) << " has no Unix-epoch anchor (run " << run.name
                       << "): it cannot line up with the metrics by itself; place it with --offset "
                       << printableText(std::filesystem::path(s.path).filename().string()) << "=DURATION (now "
                       << DurationText::format(s.clockOffsetNs) << ")\n";
    }
}

// The session keeps each run's analysis (derived results, v_finding ...): made here, so that a query
// or a re-open finds it. A run whose analysis fails keeps its imported data; the failure is said.
void analyseSession(SessionStore &store, Streams io) {
    try {
        std::vector<std::string> failures;
        if (const int n = AnalysisService::finishImport(store, true, &failures); n > 0)
            io.out << "analysed " << n << " run(s): results stored (v_step_breakdown, v_finding, v_op_stat)\n";
        for (const std::string &why : failures) io.err << "stepscope import: not analysed: " << printableText(why) << "\n";
    } catch (const std::exception &e) {
        io.err << "stepscope import: analysis not stored: " << printableText(e.what()) << "\n";
    }
}

} // namespace

int runImport(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"-o", "--output", "--offset", "--run", "--jobs"}, {"--no-analysis", "--follow-links"});
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    const std::vector<std::string> offsetTexts = a.values("--offset");
    if (!a.ok() || (a.positional().empty() && offsetTexts.empty()) || !output) {
        io.err << "stepscope import: " << (a.ok() ? kUsage : a.error()) << "\n";
        return Usage;
    }
    ImportOptions importOptions;
    if (!readImportOptions(a, "import", io, importOptions)) return Usage;
    std::vector<OffsetSpec> offsets;
    for (const std::string &text : offsetTexts) {
        std::string error;
        const auto spec = ClockOffset::parse(text, error);
        if (!spec) {
            io.err << "stepscope import: " << error << "\n";
            return Usage;
        }
        offsets.push_back(*spec);
    }
    std::vector<std::filesystem::path> inputs;
    for (const std::string &p : a.positional()) {
        std::error_code ec;
        if (!std::filesystem::exists(p, ec) && !std::filesystem::is_symlink(p, ec)) {  // dangling links: the scanner says why
            io.err << "stepscope: " << printableText(p) << ": no such file or folder\n";
            return Unreadable;
        }
        inputs.emplace_back(p);
    }
    if (const std::string why = OutputFile::refuseIfInput(*output, a.positional()); !why.empty()) {
        io.err << "stepscope import: " << why << "\n";
        return Usage;
    }
    // A session is a regular file: -o naming a FIFO, device or folder would reach SQLite as a bare
    // "disk I/O error" or "unable to open database file".
    if (struct stat st {}; ::stat(output->c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        const std::string type = fileTypeText(st.st_mode);
        io.err << "stepscope import: -o " << printableText(*output) << " is " << (type.empty() ? "a folder" : type)
               << ", not a session file: name a .stepscope file\n";
        return Usage;
    }
    std::error_code ec;
    const bool created = !std::filesystem::exists(*output, ec) && !std::filesystem::is_symlink(*output, ec);
    if (inputs.empty() && created) {
        io.err << "stepscope import: " << printableText(*output) << ": no such session (give PATHs to import)\n";
        return Unreadable;
    }
    // A new session is named *.stepscope: `-o run.png` or `-o report.json` meant export or report, and
    // a session under such a name would be opened by the wrong program.
    if (created && std::filesystem::path(*output).extension() != ".stepscope") {
        io.err << "stepscope import: -o " << printableText(*output)
               << ": a new session's name ends in .stepscope (pictures: stepscope export; reports: stepscope report -o)\n";
        return Usage;
    }
    // A session this run creates and cannot finish (disk full, nothing readable, SIGINT, SIGTERM,
    // SIGHUP) is removed whole: no empty file and no large -wal are left behind.
    bool keep = !created;
    const std::filesystem::path guarded = created ? std::filesystem::absolute(*output, ec) : std::filesystem::path();
    if (!guarded.empty()) TempSession::removeOnSignal(guarded);
    struct RemoveUnfinished {
        const std::string &path;
        const std::filesystem::path &guarded;
        const bool &keep;
        ~RemoveUnfinished() {
            if (!guarded.empty()) TempSession::forget(guarded);
            if (keep) return;
            std::error_code ignored;
            for (const char *suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(path + suffix, ignored);
        }
    } removeUnfinished{*output, guarded, keep};
    try {
        SessionStore store(*output);
        int code = Ok;
        if (!inputs.empty()) {
            ImportSummary summary;
            code = importInto(store, inputs, io, &summary, importOptions);
            keep = keep || (code != Unreadable && code != Usage);
            if (!keep) {
                io.err << "stepscope import: nothing imported; the new session " << printableText(*output)
                       << " was not kept\n";
                return code;
            }
            io.out << "session: " << printableText(*output) << "\n";
            for (const SourceSummary &s : summary.sources) {
                const char *status = s.status == SourceStatus::Ok ? "ok" : s.status == SourceStatus::Partial ? "partial" : "failed";
                io.out << "  " << printableText(s.path) << "  [" << s.format << ", " << status << "]  " << s.events << " events, "
                       << s.warnings << " warnings\n";
            }
            if (!summary.skipped.empty()) io.out << "  " << summary.skipped.size() << " file(s) skipped (see import_log)\n";
            if (!summary.duplicates.empty())
                io.out << "  " << summary.duplicates.size()
                       << " path(s) lead to a file or folder already imported: read once (see import_log)\n";
            io.out << "imported " << summary.events() << " events from " << summary.sources.size() << " source(s)\n";
        }
        if (!offsets.empty() && !applyOffsets(store, offsets, io)) return Usage;
        noteUnanchoredTraces(store, io);
        if (!a.flag("--no-analysis")) analyseSession(store, io);
        return code;
    } catch (const StoreError &e) {
        io.err << "stepscope import: " << printableText(e.what())
               << (keep ? "" : "\n(nothing kept: the new session " + printableText(*output) + " was removed)") << "\n";
        return Unreadable;
    }
}

} // namespace stepscope::cli

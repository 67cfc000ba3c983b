#include "app/cli/input_session.h"

#include "app/cli/temp_session.h"
#include "importers/nsys/nsys_export.h"
#include "models/store/foreign_database.h"
#include "models/store/session_connection.h"
#include "models/store/session_integrity.h"
#include "models/text/printable_text.h"
#include "models/store/session_reader.h"
#include "models/analysis/service/analysis_service.h"

#include <sys/statvfs.h>

#include <fstream>
#include <ostream>

namespace stepscope::cli {

namespace fs = std::filesystem;

namespace {
// When writing the scratch session failed ("disk I/O error", "database or disk is full"): the
// folder it is in, $TMPDIR's, is named with its free space, since the user named no such file.
std::string scratchWriteHint(const fs::path &scratch, const std::string &error) {
    if (scratch.empty() || (error.find("disk I/O error") == std::string::npos && error.find("disk is full") == std::string::npos))
        return {};
    const fs::path folder = scratch.parent_path();
    std::string free;
    struct statvfs st {};
    if (::statvfs(folder.c_str(), &st) == 0)
        free = ", " + std::to_string(uint64_t(st.f_bavail) * uint64_t(st.f_frsize) / (1024 * 1024)) + " MiB free there";
    return "\n  (that is the scratch session this command builds in the temporary folder " + printableText(folder.string()) +
           " — TMPDIR" + free + ": it could not be written; set TMPDIR to a folder with room, or import once with "
           "`stepscope import … -o S.stepscope` and use S)";
}
} // namespace

bool isSessionFile(const fs::path &file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return false;  // a FIFO would block the open below forever
    std::ifstream in(file, std::ios::binary);
    unsigned char header[100] = {};
    in.read(reinterpret_cast<char *>(header), sizeof header);
    if (in.gcount() != sizeof header ||
        !ForeignDatabase::looksLikeSqlite(std::string_view(reinterpret_cast<const char *>(header), 16)))
        return false;
    // The database header's application_id (bytes 68..71, big-endian) marks the sessions this build writes.
    const int32_t appId = int32_t(uint32_t(header[68]) << 24 | uint32_t(header[69]) << 16 | uint32_t(header[70]) << 8 | header[71]);
    if (appId == kStepscopeApplicationId)
        return true;
    // Anything else is a session only if it has a session's tables (an older one, before
    // application_id): an Nsight Systems export or another program's database is imported, or
    // refused with the reason, like any other input. So is a file SQLite cannot read (damaged,
    // locked): the import names it and says why.
    try {
        const ForeignDatabase db = ForeignDatabase::open(file, ForeignDatabase::Mode::ReadOnly);
        return !NsysExport::isExport(db) && db.hasTable("source") && db.hasTable("run") && db.hasTable("slice");
    } catch (const StoreError &) {
        return false;
    }
}

InputSession::~InputSession() {
    m_store.reset();
    TempSession::release(m_tempFile);
}

int importInto(SessionStore &store, const std::vector<fs::path> &inputs, Streams io, ImportSummary *summaryOut,
               const ImportOptions &options, const CancelToken &cancel) {
    ImporterRegistry registry;
    SessionImporter importer(store, registry);
    int lastPercent = -1;
    const auto progress = [&](int64_t done, int64_t total, const std::string &file) {
        if (!io.progress || total <= 0) return;
        const int pct = int(done * 100 / total);
        if (pct == lastPercent) return;
        lastPercent = pct;
        io.err << "\rimporting " << pct << "%  " << printableText(fs::path(file).filename().string()) << "\x1b[K" << std::flush;
    };
    const ImportSummary summary = importer.run(inputs, cancel, progress, options);
    if (summary.cancelled) {
        io.err << "stepscope: cancelled\n";
        if (summaryOut) *summaryOut = summary;
        return Unreadable;
    }
    if (!summary.runError.empty()) {
        io.err << "stepscope: " << printableText(summary.runError) << "\n";
        if (summaryOut) *summaryOut = summary;
        return Usage;
    }
    // The work after an import (the timeline's level-of-detail cache, so the GUI opens the session at
    // once); `import` adds the stored analysis after its clock offsets (runImport).
    if (summary.anyImported()) AnalysisService::finishImport(store, false);
    if (io.progress) io.err << "\r\x1b[K";
    for (const SourceSummary &s : summary.sources)
        if (s.status != SourceStatus::Ok)
            io.err << "stepscope: " << printableText(s.path) << ": "
                   << (s.status == SourceStatus::Failed ? "could not be read" : "read partially")
                   << (s.message.empty() ? "" : ": " + printableText(s.message)) << "\n";
    for (const ScannedFile &f : summary.skipped) {
        // A file the user named directly (not found inside a folder) that we cannot read is an error.
        bool named = false;
        for (const fs::path &in : inputs) named = named || fs::path(in) == f.path;
        if (named) io.err << "stepscope: " << printableText(f.path.string()) << ": " << printableText(f.reason) << "\n";
    }
    if (summaryOut) *summaryOut = summary;
    if (!summary.anyImported()) {
        if (summary.sources.empty() && summary.skipped.empty()) {
            std::string given;
            for (const fs::path &in : inputs) given += (given.empty() ? "" : ", ") + printableText(in.string());
            io.err << "stepscope: no files found in " << given << "\n";
        }
        else if (summary.sources.empty())
            io.err << "stepscope: nothing readable: " << summary.skipped.size() << " file(s) skipped\n";
        return Unreadable;
    }
    // Partial (3) when a file the user named was skipped, or one found in a folder could not be read
    // at all (empty, a FIFO, a dangling link, a link out of the folder): something is missing.
    bool namedSkipped = false, unreadableSkipped = false;
    for (const ScannedFile &f : summary.skipped) {
        unreadableSkipped = unreadableSkipped || f.unreadable;
        for (const fs::path &in : inputs) namedSkipped = namedSkipped || fs::path(in) == f.path;
    }
    return (summary.anyPartial() || namedSkipped || unreadableSkipped) ? Partial : Ok;
}

std::vector<std::string> InputSession::inputPaths() const {
    std::vector<std::string> out = m_named;
    if (m_summary)
        for (const SourceSummary &src : m_summary->sources) out.push_back(src.path);
    return out;
}

InputSession InputSession::open(const std::vector<std::string> &paths, Streams io, const ImportOptions &options,
                                const CancelToken &cancel) {
    InputSession s;
    s.m_named = paths;
    std::vector<fs::path> inputs;
    for (const std::string &p : paths) {
        std::error_code ec;
        if (!fs::exists(p, ec) && !fs::is_symlink(p, ec)) {  // a dangling link: the scanner says why
            io.err << "stepscope: " << printableText(p) << ": no such file or folder\n";
            s.m_exitCode = Unreadable;
            return s;
        }
        inputs.emplace_back(p);
    }
    try {
        if (inputs.size() == 1 && fs::is_regular_file(inputs[0]) && isSessionFile(inputs[0])) {
            s.m_store = std::make_unique<SessionStore>(inputs[0], SessionStore::Mode::ReadOnly);
            // A session from elsewhere may have damaged pages: find out before any view or analysis
            // reads half of it (one sequential pass, ~1 s per GB), and say so instead of a wrong report.
            if (const std::string damage = sessionDamage(*s.m_store); !damage.empty())
                throw StoreError(inputs[0].string() + ": the session file is damaged (" + damage +
                                 "); it cannot be read reliably — re-import its traces, or ask for a fresh copy");
            // --run names a run of the session; one it does not hold is an error, never ignored.
            if (!options.profileRun.empty() && options.profileRun != "all") {
                std::string names;
                bool found = false;
                for (const RunRow &run : SessionReader(*s.m_store).runs()) {
                    found = found || run.name == options.profileRun;
                    names += (names.empty() ? "" : ", ") + printableText(run.name);
                }
                if (!found) {
                    io.err << "stepscope: --run " << printableText(options.profileRun) << ": " << printableText(inputs[0].string())
                           << " holds no run of that name (its runs: " << (names.empty() ? "none" : names) << ")\n";
                    s.m_store.reset();
                    s.m_exitCode = Usage;
                }
            }
            return s;
        }
        std::string error;
        s.m_tempFile = TempSession::create(error);
        if (s.m_tempFile.empty()) {
            io.err << "stepscope: " << error << "\n";
            s.m_exitCode = Unreadable;
            return s;
        }
        s.m_store = std::make_unique<SessionStore>(s.m_tempFile);
        ImportSummary summary;
        s.m_exitCode = importInto(*s.m_store, inputs, io, &summary, options, cancel);
        s.m_summary = summary;
        if (s.m_exitCode == Unreadable || s.m_exitCode == Usage) s.m_store.reset();
    } catch (const StoreError &e) {
        io.err << "stepscope: " << printableText(e.what()) << scratchWriteHint(s.m_tempFile, e.what()) << "\n";
        s.m_store.reset();
        s.m_exitCode = Unreadable;
    }
    return s;
}

bool readImportOptions(const ArgumentList &a, const std::string &command, Streams io, ImportOptions &options) {
    options.profileRun = a.value("--run").value_or("");
    options.followLinks = a.flag("--follow-links");
    if (const auto jobs = a.value("--jobs")) {
        const auto v = parseInteger(*jobs, 1, kMaxImportJobs);
        if (!v) {
            io.err << "stepscope " << command << ": --jobs wants a whole number from 1 to " << kMaxImportJobs << ", got '"
                   << printableText(*jobs) << "'\n";
            return false;
        }
        options.jobs = int(*v);
    }
    return true;
}

} // namespace stepscope::cli

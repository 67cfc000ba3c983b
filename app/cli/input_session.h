#pragma once
// InputSession gives the report/export commands a session for their PATH arguments: an existing
// .stepscope file is opened as it is; anything else (logdirs, traces, metrics) is imported into a
// temporary session file that is deleted afterwards. It also turns import outcomes into exit codes
// and prints the import's problems, naming file, position and reason.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "importers/logdir/session_importer.h"
#include "models/concurrency/cancel_token.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>

namespace stepscope::cli {

// An SQLite file that is not an Nsight Systems export (those are imported like any profile).
bool isSessionFile(const std::filesystem::path &file);

class InputSession {
public:
    ~InputSession();
    // Returns nullptr-store on failure with exitCode set and the message already printed.
    static InputSession open(const std::vector<std::string> &paths, Streams io, const ImportOptions &options = {},
                             const CancelToken &cancel = {});
    InputSession(InputSession &&) = default;

    SessionStore *store() const { return m_store.get(); }
    int exitCode() const { return m_exitCode; }  // Ok, Unreadable or Partial
    const std::optional<ImportSummary> &summary() const { return m_summary; }
    // The paths named on the command line and every file an import of them read: an output must be
    // none of these (OutputFile::refuseIfInput).
    std::vector<std::string> inputPaths() const;

private:
    InputSession() = default;
    std::unique_ptr<SessionStore> m_store;
    std::filesystem::path m_tempFile;
    std::vector<std::string> m_named;
    std::optional<ImportSummary> m_summary;
    int m_exitCode = Ok;
};

// The import options every command that imports takes: --run NAME|all and --jobs N (parallel
// workers for the files of a job, 1..1024; default: the machine's cores). False, with the message
// on io.err ("stepscope COMMAND: ..."), when --jobs is malformed.
inline constexpr int64_t kMaxImportJobs = 1024;
bool readImportOptions(const ArgumentList &a, const std::string &command, Streams io, ImportOptions &options);

// Imports into `store`, printing progress and problems; returns the exit code. A raised `cancel`
// rolls the import back and returns Unreadable ("cancelled").
int importInto(SessionStore &store, const std::vector<std::filesystem::path> &inputs, Streams io,
               ImportSummary *summaryOut = nullptr, const ImportOptions &options = {},
               const CancelToken &cancel = {});

} // namespace stepscope::cli

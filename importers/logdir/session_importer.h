#pragma once
// SessionImporter is the one entry point that turns user inputs (logdirs, files) into session rows:
// scan → for each file its importer → source row with status, all inside ONE transaction, so a
// cancelled or crashed import leaves the session exactly as it was. The GUI runs it on a worker
// thread; the CLI runs it directly.

#include "importers/logdir/logdir_scanner.h"

#include <atomic>
#include <functional>

namespace stepscope {

struct SourceSummary {
    std::string path;
    std::string format;
    SourceStatus status = SourceStatus::Ok;
    int64_t events = 0;
    int64_t warnings = 0;
    std::string message;
};

struct ImportOptions {
    // Which profile run of a logdir's plugins/profile/<run>/ folders to import: empty = the newest,
    // "all" = every run, else a run name. Files the user named directly are always imported.
    std::string profileRun;
};

struct ImportSummary {
    std::vector<SourceSummary> sources;
    std::vector<ScannedFile> skipped;     // not imported: another kind of file, or not readable at all
    std::vector<ScannedFile> duplicates;  // a path to a file or folder already imported under another path
    bool cancelled = false;
    std::string runError;                 // the wanted profile run does not exist (names the runs found)
    std::vector<std::string> profileRuns; // every profile run found, and the ones imported
    std::vector<std::string> chosenRuns;
    int64_t events() const;
    int64_t warnings() const;
    bool anyPartial() const;   // a source was partial or failed
    bool anyImported() const;  // at least one source had a usable import
};

class SessionImporter {
public:
    using ProgressFn = std::function<void(int64_t bytesDone, int64_t bytesTotal, const std::string &file)>;

    SessionImporter(SessionStore &store, const ImporterRegistry &registry) : m_store(store), m_registry(registry) {}

    // Throws StoreError only when the session itself cannot be written; bad input files never throw.
    ImportSummary run(const std::vector<std::filesystem::path> &inputs, const std::atomic<bool> *cancel = nullptr,
                      const ProgressFn &progress = {}, const ImportOptions &options = {});

private:
    SessionStore &m_store;
    const ImporterRegistry &m_registry;
};

} // namespace stepscope

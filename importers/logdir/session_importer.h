#pragma once
// SessionImporter is the one entry point that turns user inputs (logdirs, files) into session rows:
// scan → for each file its importer → source row with status, all inside ONE transaction, so a
// cancelled or crashed import leaves the session exactly as it was. The GUI runs it on a worker
// thread; the CLI runs it directly.

#include "importers/logdir/logdir_scanner.h"
#include "models/concurrency/cancel_token.h"

#include <atomic>
#include <functional>
#include <map>

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
    ImportOptions() = default;
    ImportOptions(std::string run) : profileRun(std::move(run)) {}  // NOLINT: ImportOptions{run} reads well
    // Which profile run of a logdir's plugins/profile/<run>/ folders to import: empty = the newest,
    // "all" = every run, else a run name. Files the user named directly are always imported.
    std::string profileRun;
    // Re-opening the same inputs (GUI): files whose fingerprint matches the one stored in the
    // session at the last import are kept as they are, only new or changed files are read.
    bool reuseUnchanged = false;
    // > 0: a first picture, not the import. Each file whose importer readsPrefix() is read up to this
    // many events; other files only when smaller than kPreviewWholeFileBytes (metrics logs); nothing
    // else, and no input fingerprints are stored. The GUI shows such a session while the real import
    // runs.
    int64_t previewEvents = 0;
    static constexpr int64_t kPreviewWholeFileBytes = int64_t(8) << 20;
    // Called after each file is imported (the GUI counts events for its progress panel); with
    // several workers from their threads, one call at a time.
    std::function<void(const SourceSummary &)> sourceDone;
    // Files read in parallel (a job's rank traces): 0 = one worker per core, 1 = one after another.
    // The session is the same row for row whatever the number (importers/logdir/write_turns.h).
    int jobs = 0;
    // Follow symbolic links inside a folder that lead out of it (never into /proc, /sys, /dev).
    bool followLinks = false;
};

// What identifies a file's content cheaply: size, modification time and a hash of its first 64 KiB.
// Stored per path in the session setting kInputFingerprintSetting at each import.
struct FileFingerprint {
    int64_t sizeBytes = 0;
    int64_t mtimeNs = 0;
    uint64_t headHash = 0;
    bool operator==(const FileFingerprint &) const = default;
    static FileFingerprint of(const std::filesystem::path &file);  // all zero when unreadable
};
inline constexpr const char *kInputFingerprintSetting = "input_fingerprint";
std::map<std::string, FileFingerprint> parseFingerprints(const std::string &text);
std::string formatFingerprints(const std::map<std::string, FileFingerprint> &files);

struct ImportSummary {
    std::vector<SourceSummary> sources;
    std::vector<ScannedFile> skipped;     // not imported: another kind of file, or not readable at all
    std::vector<ScannedFile> duplicates;  // a path to a file or folder already imported under another path
    bool cancelled = false;
    std::string runError;                 // the wanted profile run does not exist (names the runs found)
    std::vector<std::string> profileRuns; // every profile run found, and the ones imported
    std::vector<std::string> chosenRuns;
    // reuseUnchanged: files kept from the earlier import because they did not change.
    std::vector<std::string> unchanged;
    // reuseUnchanged: a file of the earlier import is gone or no longer chosen (another profile run
    // became the newest): its rows cannot be taken out of the session, so nothing was written and
    // the inputs need importing into a fresh session.
    bool needsFreshSession = false;
    int64_t events() const;
    int64_t warnings() const;
    bool anyPartial() const;   // a source was partial or failed
    bool anyImported() const;  // at least one source had a usable import
};

// The number of workers `jobs` asks for: itself when positive, else the machine's cores (at least 1).
int importWorkers(int jobs);

class SessionImporter {
public:
    using ProgressFn = std::function<void(int64_t bytesDone, int64_t bytesTotal, const std::string &file)>;

    SessionImporter(SessionStore &store, const ImporterRegistry &registry) : m_store(store), m_registry(registry) {}

    // Throws StoreError only when the session itself cannot be written; bad input files never throw.
    // `progress` is called from the worker threads, one call at a time.
    ImportSummary run(const std::vector<std::filesystem::path> &inputs, const CancelToken &cancel = {},
                      const ProgressFn &progress = {}, const ImportOptions &options = {});

private:
    SessionStore &m_store;
    const ImporterRegistry &m_registry;
};

} // namespace stepscope

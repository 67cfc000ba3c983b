#pragma once
// FileImports runs the per-file part of SessionImporter::run: each scanned file is imported (or
// logged as skipped or a duplicate) by one of N workers, a worker reading one file at a time (so
// memory stays bounded per worker: a file's streaming limits hold per worker), and every write to
// the session happens in that file's turn (WriteTurns), in input order. With one worker everything
// runs on the calling thread. Progress and sourceDone are called one at a time; cancel stops every
// worker; a failure of the session itself stops the others and is rethrown by run().

#include "importers/logdir/session_importer.h"
#include "importers/logdir/write_turns.h"
#include "models/concurrency/cancel_token.h"

#include <mutex>
#include <optional>
#include <set>

namespace stepscope {

struct FileOutcome {
    std::optional<SourceSummary> source;  // imported (ok, partial or failed)
    std::optional<ScannedFile> skipped;   // not imported: another kind of file, or a duplicate
    bool duplicate = false;
};

class FileImports {
public:
    FileImports(const std::vector<ScannedFile> &files_, const std::set<std::string> &keep_, bool reusing_,
                SessionWriter &writer_, const CancelToken &cancel_, const SessionImporter::ProgressFn &progress_,
                const ImportOptions &options_, int64_t totalBytes_)
        : files(files_), keep(keep_), reusing(reusing_), writer(writer_), cancel(cancel_), progress(progress_),
          options(options_), totalBytes(totalBytes_) {}

    const std::vector<ScannedFile> &files;
    const std::set<std::string> &keep;  // recorded paths kept from an earlier import
    bool reusing;
    SessionWriter &writer;
    const CancelToken &cancel;
    const SessionImporter::ProgressFn &progress;
    const ImportOptions &options;
    int64_t totalBytes;
    std::vector<FileOutcome> outcomes{};  // by file, filled by run()

    void run(int workers);

private:
    void importFile(size_t i, WriteTurns &turns);
    void reportProgress(size_t i, int64_t done, const std::string &path);

    std::mutex m_report;                 // progress, sourceDone
    std::vector<int64_t> m_doneBytes{};  // by file
    int64_t m_doneTotal = 0;
};

// The path a file is recorded under (sources, fingerprints): absolute and normalised.
std::string recordedPath(const std::filesystem::path &p);

} // namespace stepscope

#include "importers/logdir/file_imports.h"

#include "models/concurrency/worker_thread.h"

#include <algorithm>
#include <exception>

namespace stepscope {

namespace fs = std::filesystem;

std::string recordedPath(const fs::path &p) {
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec).lexically_normal();
    return (ec ? p : abs).string();
}

int importWorkers(int jobs) {
    if (jobs > 0) return jobs;
    return WorkerThread::hardwareThreads();
}

void FileImports::run(int workers) {
    outcomes.assign(files.size(), {});
    m_doneBytes.assign(files.size(), 0);
    WriteTurns turns(files.size());
    if (workers <= 1 || files.size() <= 1) {
        for (size_t i = 0; i < files.size(); ++i) importFile(i, turns);
        return;
    }
    std::atomic<size_t> nextFile{0};
    std::mutex failureMutex;
    std::exception_ptr failure;
    const auto work = [&] {
        for (size_t i; (i = nextFile.fetch_add(1)) < files.size();) {
            try {
                importFile(i, turns);
            } catch (const WriteTurnsAborted &) {
                return;  // another worker failed; its error is the one to report
            } catch (...) {
                {
                    std::lock_guard lock(failureMutex);
                    if (!failure) failure = std::current_exception();
                }
                turns.abort();
                return;
            }
        }
    };
    std::vector<WorkerThread> threads;
    const size_t n = std::min(files.size(), size_t(workers));
    for (size_t t = 0; t < n; ++t) threads.emplace_back(work);
    for (WorkerThread &t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

void FileImports::reportProgress(size_t i, int64_t done, const std::string &path) {
    std::lock_guard lock(m_report);
    m_doneTotal += done - m_doneBytes[i];
    m_doneBytes[i] = done;
    if (progress) progress(m_doneTotal, totalBytes, path);
}

void FileImports::importFile(size_t i, WriteTurns &turns) {
    WriteTurns::Guard turn{turns, i};
    const ScannedFile &f = files[i];
    FileOutcome &out = outcomes[i];
    const std::string path = recordedPath(f.path);
    if (keep.count(path)) return;
    // A re-import of changed files: the skipped ones were logged by the first import already.
    if (reusing && (!f.sameAs.empty() || !f.importer)) {
        out.skipped = f;
        out.duplicate = !f.sameAs.empty();
        return;
    }
    if (!f.sameAs.empty() || !f.importer) {
        turns.wait(i);
        // A duplicate: importing it again would double every slice; the warning names both paths.
        if (!f.sameAs.empty()) writer.log(std::nullopt, Severity::Warning, ImportLogCode::DuplicatePath, path, "", f.reason);
        else writer.log(std::nullopt, f.unreadable ? Severity::Warning : Severity::Info, ImportLogCode::FileSkipped, path, "",
                        "skipped: " + f.reason);
        out.skipped = f;
        out.duplicate = !f.sameAs.empty();
        return;
    }
    if (cancel.cancelled()) return;
    // The source row is added when the file's turn comes (the importer's first use of the store).
    const auto enter = [&, i] {
        turns.wait(i);
        return writer.addSource(path, f.importer->format(), f.sizeBytes);
    };
    ImportContext ctx(writer, enter, path, cancel,
                      [&](int64_t done, int64_t) { reportProgress(i, std::min(done, f.sizeBytes), path); });
    if (options.previewEvents > 0 && f.importer->readsPrefix()) ctx.setEventLimit(options.previewEvents);
    ImportResult result;
    try {
        result = f.importer->import(f.path, ctx);
    } catch (const StoreError &) {
        throw;  // the session itself failed: the writer rolls back on unwind
    } catch (const WriteTurnsAborted &) {
        throw;
    } catch (const std::exception &e) {
        // An importer bug must not take the session down: record it against the file.
        result.status = SourceStatus::Failed;
        result.message = std::string("internal error while reading: ") + e.what();
        ctx.error(ImportLogCode::ImportFailed, "", result.message);
    }
    if (ctx.cancelled()) return;
    ctx.enterWriting();
    if (result.status != SourceStatus::Ok && !result.message.empty() && ctx.errors() == 0 && ctx.warnings() == 0)
        ctx.error(ImportLogCode::ImportFailed, "", result.message);
    writer.finishSource(ctx.sourceId(), result.events, ctx.warnings() + ctx.errors(), result.status);
    out.source = SourceSummary{path, f.importer->format(), result.status, result.events, ctx.warnings() + ctx.errors(),
                               result.message};
    reportProgress(i, f.sizeBytes, path);
    if (options.sourceDone) {
        std::lock_guard lock(m_report);
        options.sourceDone(*out.source);
    }
}

} // namespace stepscope

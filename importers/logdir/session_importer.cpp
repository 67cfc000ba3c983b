#include "importers/logdir/session_importer.h"

#include "importers/xplane/profile_run_selector.h"

#include <algorithm>
#include <set>

namespace stepscope {

namespace fs = std::filesystem;

int64_t ImportSummary::events() const {
    int64_t n = 0;
    for (const auto &s : sources) n += s.events;
    return n;
}
int64_t ImportSummary::warnings() const {
    int64_t n = 0;
    for (const auto &s : sources) n += s.warnings;
    return n;
}
bool ImportSummary::anyPartial() const {
    for (const auto &s : sources)
        if (s.status != SourceStatus::Ok) return true;
    return false;
}
bool ImportSummary::anyImported() const {
    for (const auto &s : sources)
        if (s.status != SourceStatus::Failed) return true;
    return false;
}

ImportSummary SessionImporter::run(const std::vector<fs::path> &inputs, const std::atomic<bool> *cancel,
                                   const ProgressFn &progress, const ImportOptions &options) {
    ImportSummary summary;
    LogdirScanner scanner(m_registry);
    std::vector<ScannedFile> files = scanner.scan(inputs);

    // A logdir often holds several profile captures (plugins/profile/<run>/): keep the chosen one.
    {
        std::vector<fs::path> paths;
        for (const auto &f : files) paths.push_back(f.path);
        const ProfileRunChoice choice = ProfileRunSelector::choose(paths, options.profileRun);
        summary.profileRuns = choice.runs;
        summary.chosenRuns = choice.chosen;
        if (!choice.error.empty()) {
            summary.runError = choice.error;
            return summary;
        }
        const std::set<fs::path> named(inputs.begin(), inputs.end());
        for (size_t i : choice.dropped) {
            if (named.count(files[i].path) || !files[i].importer) continue;
            files[i].importer = nullptr;
            files[i].reason = "older profile run (choose one with --run NAME, or --run all)";
        }
    }

    int64_t total = 0;
    for (const auto &f : files)
        if (f.importer) total += f.sizeBytes;

    SessionWriter writer(m_store);
    writer.begin();
    int64_t doneBefore = 0;
    for (const ScannedFile &f : files) {
        std::error_code ec;
        const fs::path abs = fs::absolute(f.path, ec).lexically_normal();
        const std::string path = (ec ? f.path : abs).string();
        if (!f.sameAs.empty()) {
            // Importing it again would double every slice; the warning names both paths.
            writer.log(std::nullopt, Severity::Warning, path, "", f.reason);
            summary.duplicates.push_back(f);
            continue;
        }
        if (!f.importer) {
            writer.log(std::nullopt, f.unreadable ? Severity::Warning : Severity::Info, path, "", "skipped: " + f.reason);
            summary.skipped.push_back(f);
            continue;
        }
        if (cancel && cancel->load()) break;
        const int64_t sourceId = writer.addSource(path, f.importer->format(), f.sizeBytes);
        ImportContext ctx(writer, sourceId, path, cancel, [&](int64_t done, int64_t) {
            if (progress) progress(doneBefore + std::min(done, f.sizeBytes), total, path);
        });
        ImportResult result;
        try {
            result = f.importer->import(f.path, ctx);
        } catch (const StoreError &) {
            throw;  // the session itself failed: the writer rolls back on unwind
        } catch (const std::exception &e) {
            // An importer bug must not take the session down: record it against the file.
            result.status = SourceStatus::Failed;
            result.message = std::string("internal error while reading: ") + e.what();
            ctx.error("", result.message);
        }
        if (ctx.cancelled()) break;
        if (result.status != SourceStatus::Ok && !result.message.empty() && ctx.errors() == 0 && ctx.warnings() == 0)
            ctx.error("", result.message);
        writer.finishSource(sourceId, result.events, ctx.warnings() + ctx.errors(), result.status);
        summary.sources.push_back({path, f.importer->format(), result.status, result.events,
                                   ctx.warnings() + ctx.errors(), result.message});
        doneBefore += f.sizeBytes;
        if (progress) progress(doneBefore, total, path);
    }
    if (cancel && cancel->load()) {
        writer.rollback();
        summary.cancelled = true;
        summary.sources.clear();
        return summary;
    }
    writer.commit();
    return summary;
}

} // namespace stepscope

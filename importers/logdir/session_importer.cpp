#include "importers/logdir/session_importer.h"

#include "importers/logdir/file_imports.h"

#include "importers/xplane/profile_run_selector.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

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

namespace {
bool isUnder(const std::string &path, const std::string &input) {
    if (path == input) return true;
    const std::string dir = input.empty() || input.back() == '/' ? input : input + "/";
    return path.compare(0, dir.size(), dir) == 0;
}
} // namespace

FileFingerprint FileFingerprint::of(const fs::path &file) {
    FileFingerprint fp;
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec) return fp;
    fp.sizeBytes = int64_t(size);
    const auto mtime = fs::last_write_time(file, ec);
    if (!ec) fp.mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
    // FNV-1a over the head: catches a file rewritten in place with the same size within the
    // file system's time resolution; reading 64 KiB costs nothing next to an import.
    std::ifstream in(file, std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(std::max<std::streamsize>(in.gcount(), 0)));
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : head) h = (h ^ c) * 1099511628211ull;
    fp.headHash = h;
    return fp;
}

std::map<std::string, FileFingerprint> parseFingerprints(const std::string &text) {
    // One line per file: size, mtime, hash, then the path (last, so spaces in it need no quoting).
    std::map<std::string, FileFingerprint> out;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        FileFingerprint fp;
        if (!(fields >> fp.sizeBytes >> fp.mtimeNs >> fp.headHash) || fields.get() != '\t') continue;
        std::string path;
        std::getline(fields, path);
        if (!path.empty()) out[path] = fp;
    }
    return out;
}

std::string formatFingerprints(const std::map<std::string, FileFingerprint> &files) {
    std::ostringstream out;
    for (const auto &[path, fp] : files)
        if (path.find('\n') == std::string::npos)  // such a path is simply re-read next time
            out << fp.sizeBytes << ' ' << fp.mtimeNs << ' ' << fp.headHash << '\t' << path << '\n';
    return out.str();
}

ImportSummary SessionImporter::run(const std::vector<fs::path> &inputs, const CancelToken &cancel,
                                   const ProgressFn &progress, const ImportOptions &options) {
    ImportSummary summary;
    LogdirScanner scanner(m_registry, options.followLinks);
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

    // Fingerprints of what is about to be imported; with reuseUnchanged, files that match the
    // stored ones are kept as they are.
    std::map<std::string, FileFingerprint> stored = parseFingerprints(m_store.setting(kInputFingerprintSetting));
    std::map<std::string, FileFingerprint> current;
    for (const auto &f : files)
        if (f.importer && f.sameAs.empty()) current[recordedPath(f.path)] = FileFingerprint::of(f.path);
    std::set<std::string> keep;
    const bool reusing = options.reuseUnchanged && !stored.empty();
    if (reusing) {
        for (const auto &entry : stored) {
            const std::string &path = entry.first;  // a plain name: the lambda below captures it (clang 14)
            if (current.count(path)) continue;
            // Files added to the session from elsewhere are not these inputs' business.
            const bool ours = std::any_of(inputs.begin(), inputs.end(), [&](const fs::path &in) { return isUnder(path, recordedPath(in)); });
            if (ours) {
                summary.needsFreshSession = true;
                return summary;
            }
        }
        for (const auto &[path, fp] : current) {
            const auto it = stored.find(path);
            if (it != stored.end() && it->second == fp) keep.insert(path);
        }
        summary.unchanged.assign(keep.begin(), keep.end());
        if (keep.size() == current.size()) {  // nothing to write at all
            summary.cancelled = cancel.cancelled();
            if (summary.cancelled) summary.unchanged.clear();
            return summary;
        }
    }

    // A first picture reads only what can be read fast: prefixes of traces, small whole files.
    const bool preview = options.previewEvents > 0;
    if (preview)
        for (ScannedFile &f : files)
            if (f.importer && !f.importer->readsPrefix() && f.sizeBytes >= ImportOptions::kPreviewWholeFileBytes) {
                f.importer = nullptr;
                f.reason = "not in the first picture (read by the import that follows it)";
            }

    int64_t total = 0;
    for (const auto &f : files)
        if (f.importer && !keep.count(recordedPath(f.path))) total += f.sizeBytes;

    SessionWriter writer(m_store);
    writer.begin();
    FileImports imports(files, keep, reusing, writer, cancel, progress, options, total);
    imports.run(importWorkers(options.jobs));
    for (FileOutcome &o : imports.outcomes) {
        if (o.source) summary.sources.push_back(std::move(*o.source));
        if (o.skipped) (o.duplicate ? summary.duplicates : summary.skipped).push_back(*o.skipped);
    }
    if (cancel.cancelled()) {
        writer.rollback();
        summary.cancelled = true;
        summary.sources.clear();
        return summary;
    }
    // Part of the transaction: a cancelled import leaves the old fingerprint with the old rows.
    // A first picture is not these files' import: a later re-open must read them.
    if (!preview) {
        for (const auto &[path, fp] : current) stored[path] = fp;
        m_store.setSetting(kInputFingerprintSetting, formatFingerprints(stored));
    }
    writer.commit();
    return summary;
}

} // namespace stepscope

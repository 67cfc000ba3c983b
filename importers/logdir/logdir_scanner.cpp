#include "importers/logdir/logdir_scanner.h"

#include "importers/common/byte_source.h"

#include <algorithm>
#include <cstring>

namespace stepscope {

namespace fs = std::filesystem;

namespace {
bool hiddenOrOurs(const fs::path &p) {
    const std::string name = p.filename().string();
    if (name.empty() || name[0] == '.') return true;
    for (const char *ext : {".stepscope", ".stepscope-wal", ".stepscope-shm", ".stepscope-journal"})
        if (name.size() >= std::strlen(ext) && name.compare(name.size() - std::strlen(ext), std::string::npos, ext) == 0)
            return true;
    return false;
}
} // namespace

ScannedFile LogdirScanner::classify(const fs::path &file) const {
    ScannedFile out;
    out.path = file;
    std::error_code ec;
    out.sizeBytes = int64_t(fs::file_size(file, ec));
    if (ec) {
        out.reason = "cannot read: " + ec.message();
        return out;
    }
    if (out.sizeBytes == 0) {
        out.reason = "empty file (0 bytes)";
        return out;
    }
    std::string error;
    const std::string head = ByteSource::peek(file, ImporterRegistry::kSniffBytes, &error);
    if (head.empty()) {
        out.reason = error.empty() ? "no readable content" : error;
        return out;
    }
    out.importer = m_registry.find(file, head);
    if (!out.importer) out.reason = "not a format Stepscope reads (content not recognised)";
    return out;
}

void LogdirScanner::walk(const fs::path &dir, int depth, std::vector<ScannedFile> &out) const {
    if (depth > kMaxDepth) return;
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        const fs::path p = it->path();
        if (hiddenOrOurs(p)) continue;
        std::error_code sec;
        if (it->is_symlink(sec)) continue;  // avoid cycles and files outside the logdir
        if (it->is_directory(sec)) walk(p, depth + 1, out);
        else if (it->is_regular_file(sec)) out.push_back(classify(p));
    }
}

std::vector<ScannedFile> LogdirScanner::scan(const std::vector<fs::path> &inputs) const {
    std::vector<ScannedFile> out;
    for (const fs::path &in : inputs) {
        std::error_code ec;
        if (fs::is_directory(in, ec)) {
            std::vector<ScannedFile> found;
            walk(in, 0, found);
            std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.path < b.path; });
            out.insert(out.end(), found.begin(), found.end());
        } else {
            out.push_back(classify(in));
        }
    }
    return out;
}

} // namespace stepscope

#include "importers/logdir/logdir_scanner.h"

#include "importers/common/byte_source.h"
#include "importers/logdir/path_problem.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

ScannedFile unreadable(const fs::path &path, std::string reason) {
    ScannedFile f;
    f.path = path;
    f.reason = std::move(reason);
    f.unreadable = true;
    return f;
}

// How two paths to one file or folder are related, for the duplicate's message.
std::string howReachedTwice(const fs::path &a, const fs::path &b) {
    std::error_code ea, eb, ec;
    if (fs::absolute(a, ea).lexically_normal() == fs::absolute(b, eb).lexically_normal() && !ea && !eb)
        return "the same path, given twice";
    const fs::path ra = fs::canonical(a, ec), rb = fs::canonical(b, ec);
    if (!ec && ra == rb) return "reached again through a symbolic link";
    return "a hard link: same device and inode";
}
} // namespace

ScannedFile LogdirScanner::classify(const fs::path &file) const {
    ScannedFile out;
    out.path = file;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const std::error_code ec(errno, std::generic_category());
        return unreadable(file, "cannot open: " + unreachablePathText(file, ec));
    }
    struct stat st {};
    const bool statted = ::fstat(fd, &st) == 0;
    const int statErrno = errno;
    ::close(fd);
    if (!statted) return unreadable(file, "cannot read: " + pathErrorText(statErrno));
    if (!S_ISREG(st.st_mode)) return unreadable(file, S_ISDIR(st.st_mode) ? "is a folder" : fileTypeText(st.st_mode));
    out.sizeBytes = int64_t(st.st_size);
    if (out.sizeBytes == 0) {  // a trace or log that was never written: a problem to warn about
        out.reason = "empty file (0 bytes)";
        out.unreadable = true;
        return out;
    }
    std::string error;
    const std::string head = ByteSource::peek(file, ImporterRegistry::kSniffBytes, &error);
    if (head.empty()) {
        out.reason = error.empty() ? "no readable content" : error;
        return out;
    }
    out.importer = m_registry.find(file, head);
    if (!out.importer) {
        for (const auto &imp : m_registry.importers())
            if (out.reason = imp->refusal(file, head); !out.reason.empty()) break;
        if (out.reason.empty()) out.reason = "not a format Stepscope reads (content not recognised)";
    }
    return out;
}

void LogdirScanner::visit(const fs::path &path, int depth, Walk &walk) const {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {  // follows links: a dangling or looping one fails here
        const std::error_code ec(errno, std::generic_category());
        walk.out.push_back(unreadable(path, unreachablePathText(path, ec)));
        return;
    }
    const FileId id{uint64_t(st.st_dev), uint64_t(st.st_ino)};
    if (S_ISDIR(st.st_mode)) {
        for (const auto &[ancestor, ancestorPath] : walk.ancestors)
            if (ancestor == id) {
                walk.out.push_back(unreadable(path, "symbolic link loop: leads back to " + ancestorPath.string() +
                                                        ", a folder that contains it"));
                return;
            }
        if (const auto seen = walk.folders.find(id); seen != walk.folders.end()) {
            ScannedFile dup;
            dup.path = path;
            dup.sameAs = seen->second;
            dup.reason = "same folder as " + seen->second.string() + " (" + howReachedTwice(path, seen->second) +
                         "): its files are imported once";
            walk.out.push_back(std::move(dup));
            return;
        }
        walk.folders.emplace(id, path);
        if (depth > kMaxDepth) {
            walk.out.push_back(unreadable(path, "folder nested more than " + std::to_string(kMaxDepth) +
                                                    " levels deep: not read"));
            return;
        }
        walk.ancestors.emplace_back(id, path);
        list(path, depth, walk);
        walk.ancestors.pop_back();
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        walk.out.push_back(unreadable(path, fileTypeText(st.st_mode)));
        return;
    }
    if (const auto seen = walk.files.find(id); seen != walk.files.end()) {
        ScannedFile dup;
        dup.path = path;
        dup.sameAs = seen->second;
        dup.sizeBytes = int64_t(st.st_size);
        dup.reason = "same file as " + seen->second.string() + " (" + howReachedTwice(path, seen->second) + "): imported once";
        walk.out.push_back(std::move(dup));
        return;
    }
    walk.files.emplace(id, path);
    walk.out.push_back(classify(path));
}

namespace {
bool isInside(const fs::path &path, const fs::path &folder) {
    if (folder.empty()) return false;
    const fs::path rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}
} // namespace

std::string LogdirScanner::linkRefusal(const fs::path &link, const Walk &walk) const {
    std::error_code ec;
    const fs::path target = fs::canonical(link, ec);
    if (ec) return {};  // dangling or looping: visit() names it
    for (const char *system : {"/proc", "/sys", "/dev"})
        if (target == system || isInside(target, system))
            return "symbolic link to " + target.string() + ": never followed into /proc, /sys or /dev";
    if (m_followLinks || walk.root.empty() || target == walk.root || isInside(target, walk.root)) return {};
    return "symbolic link to " + target.string() + ", outside " + walk.root.string() +
           ": not followed (--follow-links follows links out of the folder given)";
}

void LogdirScanner::list(const fs::path &dir, int depth, Walk &walk) const {
    std::vector<fs::path> real, links;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        if (hiddenOrOurs(p)) continue;
        if (++walk.entries > kMaxEntries) {
            if (!walk.truncated)
                walk.out.push_back(unreadable(dir, "more than " + std::to_string(kMaxEntries) +
                                                       " entries in the opened folders: the rest of this folder and the folders after it are not read"));
            walk.truncated = true;
            break;
        }
        std::error_code lec;
        (it->is_symlink(lec) ? links : real).push_back(p);
    }
    if (ec)  // the folder itself (EACCES on open) or a later read of it
        walk.out.push_back(unreadable(dir, "cannot list folder: " + pathErrorText(ec)));
    std::sort(real.begin(), real.end());
    std::sort(links.begin(), links.end());
    for (const auto *group : {&real, &links})
        for (const fs::path &p : *group) {
            if (walk.truncated) return;
            if (group == &links)
                if (std::string why = linkRefusal(p, walk); !why.empty()) {
                    walk.out.push_back(unreadable(p, std::move(why)));
                    continue;
                }
            visit(p, depth + 1, walk);
        }
}

std::vector<ScannedFile> LogdirScanner::scan(const std::vector<fs::path> &inputs) const {
    std::vector<ScannedFile> out;
    Walk walk;  // shared by all inputs: a file named twice, or inside two named folders, is read once
    for (const fs::path &in : inputs) {
        walk.out.clear();
        std::error_code ec;
        walk.root = fs::is_directory(in, ec) ? fs::canonical(in, ec) : fs::path();
        if (ec) walk.root.clear();
        visit(in, 0, walk);
        std::sort(walk.out.begin(), walk.out.end(), [](const auto &a, const auto &b) { return a.path < b.path; });
        out.insert(out.end(), walk.out.begin(), walk.out.end());
    }
    return out;
}

} // namespace stepscope

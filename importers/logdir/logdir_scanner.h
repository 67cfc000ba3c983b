#pragma once
// LogdirScanner turns what the user opened (folders and files) into the list of files to import:
// it walks folders (TensorBoard logdirs: plugins/profile/<run>/<host>.*, event files, metrics logs)
// and decides each file by content sniffing through the ImporterRegistry, never by name alone.
// Files no importer accepts are returned as skipped, with the reason, for the import log; so is
// everything that cannot be read at all (an unlistable folder, a FIFO, a socket or device, a
// dangling or looping symbolic link), with words that say which. A symbolic link found inside a
// folder is followed when it leads to somewhere inside that folder; one that leads out of it is
// listed as skipped unless followLinks, and one into /proc, /sys or /dev never is followed (a link to
// "/" must not import the machine). Every file and folder is identified by (device, inode): one
// reached twice (a symlinked folder, a link to a file, a hard link) is read once and its second path
// is reported as a duplicate.

#include "importers/common/importer_registry.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stepscope {

struct ScannedFile {
    std::filesystem::path path;
    Importer *importer = nullptr;  // nullptr: skipped (or a duplicate)
    std::string reason;            // why skipped
    int64_t sizeBytes = 0;
    // Set when skipped because the path cannot be read at all (permission, not a file, broken link):
    // a problem to warn about, unlike a file that is simply of another kind.
    bool unreadable = false;
    // Set when this path is a file or folder already reached through `sameAs`: not read twice.
    std::filesystem::path sameAs;
};

class LogdirScanner {
public:
    explicit LogdirScanner(const ImporterRegistry &registry, bool followLinks = false)
        : m_registry(registry), m_followLinks(followLinks) {}

    // Folders are walked recursively (hidden entries and our own .stepscope files are ignored);
    // results are sorted by path so imports are deterministic. Within a folder, real entries are
    // read before symbolic links, so a file is imported under its own name rather than a link's.
    std::vector<ScannedFile> scan(const std::vector<std::filesystem::path> &inputs) const;
    // One path known to be a regular file: opened without blocking (a FIFO swapped in is refused),
    // sized, sniffed.
    ScannedFile classify(const std::filesystem::path &file) const;

    static constexpr int kMaxDepth = 16;
    static constexpr int64_t kMaxEntries = 200'000;  // a link to "/" must not walk the whole disk

private:
    using FileId = std::pair<uint64_t, uint64_t>;  // (st_dev, st_ino)
    struct Walk {
        std::map<FileId, std::filesystem::path> files, folders;
        std::vector<std::pair<FileId, std::filesystem::path>> ancestors;  // folders being listed
        std::filesystem::path root;  // the folder given, resolved: links out of it are not followed
        int64_t entries = 0;
        bool truncated = false;
        std::vector<ScannedFile> out;
    };
    void visit(const std::filesystem::path &path, int depth, Walk &walk) const;
    void list(const std::filesystem::path &dir, int depth, Walk &walk) const;
    // Why a symbolic link found inside the walk is not followed; empty when it is.
    std::string linkRefusal(const std::filesystem::path &link, const Walk &walk) const;
    const ImporterRegistry &m_registry;
    bool m_followLinks = false;
};

} // namespace stepscope

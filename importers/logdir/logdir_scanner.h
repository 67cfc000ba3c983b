#pragma once
// LogdirScanner turns what the user opened (folders and files) into the list of files to import:
// it walks folders (TensorBoard logdirs: plugins/profile/<run>/<host>.*, event files, metrics logs)
// and decides each file by content sniffing through the ImporterRegistry, never by name alone.
// Files no importer accepts are returned as skipped, with the reason, for the import log.

#include "importers/common/importer_registry.h"

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope {

struct ScannedFile {
    std::filesystem::path path;
    Importer *importer = nullptr;  // nullptr: skipped
    std::string reason;            // why skipped
    int64_t sizeBytes = 0;
};

class LogdirScanner {
public:
    explicit LogdirScanner(const ImporterRegistry &registry) : m_registry(registry) {}

    // Folders are walked recursively (hidden entries and our own .stepscope files are ignored);
    // results are sorted by path so imports are deterministic.
    std::vector<ScannedFile> scan(const std::vector<std::filesystem::path> &inputs) const;
    ScannedFile classify(const std::filesystem::path &file) const;

    static constexpr int kMaxDepth = 16;

private:
    void walk(const std::filesystem::path &dir, int depth, std::vector<ScannedFile> &out) const;
    const ImporterRegistry &m_registry;
};

} // namespace stepscope

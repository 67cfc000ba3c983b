#pragma once
// The list of every importer Stepscope has, and content sniffing over it. Logdir discovery and the
// command line ask it which importer (if any) reads a file.

#include "importers/common/importer.h"

#include <memory>
#include <vector>

namespace stepscope {

class ImporterRegistry {
public:
    ImporterRegistry();  // registers every built-in importer

    const std::vector<std::unique_ptr<Importer>> &importers() const { return m_importers; }
    // Adds an importer after the built-in ones (tests, experiments).
    void add(std::unique_ptr<Importer> importer) { m_importers.push_back(std::move(importer)); }
    // First importer whose sniff() accepts the file; nullptr when none does.
    Importer *find(const std::filesystem::path &file, std::string_view head) const;

    static constexpr size_t kSniffBytes = 8192;

private:
    std::vector<std::unique_ptr<Importer>> m_importers;
};

} // namespace stepscope

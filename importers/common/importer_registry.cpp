#include "importers/common/importer_registry.h"

// Each importer adds its include here and one line in the constructor below.

namespace stepscope {

ImporterRegistry::ImporterRegistry() {
    // Order matters only where two formats could accept the same bytes: more specific first.
}

Importer *ImporterRegistry::find(const std::filesystem::path &file, std::string_view head) const {
    for (const auto &imp : m_importers)
        if (imp->sniff(file, head)) return imp.get();
    return nullptr;
}

} // namespace stepscope

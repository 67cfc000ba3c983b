#pragma once
// StringInterner interns the names of one file while it is read: ids are local (1, 2, ... in order of
// first appearance) and looking a name up by string_view allocates nothing. A name reaches the store
// (SessionWriter::intern) only through storeId()/storeIds(), once per distinct text. An importer
// that reads a whole file before its turn to write has come (TraceEventBuffer for the Chrome and
// Nsight Systems imports, parsed on SessionImporter's workers) maps all its ids at once with
// storeIds(); one that writes while it reads (XPlaneLineWriter) asks storeId() per name, cached.
// The one string interner of the importers.

#include "models/store/session_writer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {

class StringInterner {
public:
    uint32_t intern(std::string_view text) {
        if (auto it = m_ids.find(text); it != m_ids.end())
            return it->second;
        // A missing field is a default string_view (null data), which SQLite would bind as NULL.
        m_texts.emplace_back(text.data() ? text : std::string_view("", 0));
        const auto id = uint32_t(m_texts.size());
        m_ids.emplace(m_texts.back(), id);
        return id;
    }
    size_t size() const { return m_texts.size(); }
    std::string_view text(uint32_t id) const { return m_texts[id - 1]; }  // id from intern()

    // The store's id of a local id (from intern()); the text goes to the store on first use.
    int64_t storeId(SessionWriter &writer, uint32_t id) {
        if (m_storeIds.size() <= id)
            m_storeIds.resize(m_texts.size() + 1, 0);
        int64_t &stored = m_storeIds[id];
        if (stored == 0)
            stored = writer.intern(m_texts[id - 1]);
        return stored;
    }
    // Store id of each local id (index 0 unused): every text goes to the store once, in local order.
    std::vector<int64_t> storeIds(SessionWriter &writer) {
        for (uint32_t id = 1; id <= m_texts.size(); ++id)
            storeId(writer, id);
        m_storeIds.resize(m_texts.size() + 1, 0);
        return m_storeIds;
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> m_texts;
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> m_ids;
    std::vector<int64_t> m_storeIds;  // by local id; 0: not in the store yet
};

} // namespace stepscope

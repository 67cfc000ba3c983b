#pragma once
// LocalStringTable interns the names of one file while it is parsed, before the parser may touch the
// session: ids are local (1, 2, ... in order of first appearance), and storeIds() interns them all
// into the store once the file's turn to write has come. This is what lets SessionImporter parse the
// files of a job on several workers while the SQLite writes stay on one connection, in input order.
// Used by ChromeTraceParser (Chrome and Nsight Systems imports); StringInterner is the cache for
// importers that write while they read.

#include "models/store/session_writer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {

class LocalStringTable {
public:
    uint32_t intern(std::string_view text) {
        if (auto it = m_ids.find(text); it != m_ids.end())
            return it->second;
        m_texts.emplace_back(text.data() ? text : std::string_view("", 0));
        const auto id = uint32_t(m_texts.size());
        m_ids.emplace(m_texts.back(), id);
        return id;
    }
    size_t size() const { return m_texts.size(); }
    std::string_view text(uint32_t id) const { return m_texts[id - 1]; }  // id from intern()

    // Store id of each local id (index 0 unused): every text goes to the store once, in local order.
    std::vector<int64_t> storeIds(SessionWriter &writer) const {
        std::vector<int64_t> ids(m_texts.size() + 1, 0);
        for (size_t i = 0; i < m_texts.size(); ++i)
            ids[i + 1] = writer.intern(m_texts[i]);
        return ids;
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> m_texts;
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> m_ids;
};

} // namespace stepscope

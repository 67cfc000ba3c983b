#pragma once
// StringInterner caches SessionWriter::intern() for an importer's hot loop: looking a name up by
// string_view allocates nothing, and each distinct text reaches the store once. One per import;
// used by ChromeTraceParser (and meant for the other trace importers).

#include "models/store/session_writer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace stepscope {

class StringInterner {
public:
    explicit StringInterner(SessionWriter &writer) : m_writer(writer) {}

    int64_t intern(std::string_view text) {
        if (auto it = m_ids.find(text); it != m_ids.end())
            return it->second;
        // A missing field is a default string_view (null data), which SQLite would bind as NULL.
        const int64_t id = m_writer.intern(text.data() ? text : std::string_view("", 0));
        m_ids.emplace(std::string(text), id);
        return id;
    }
    size_t size() const { return m_ids.size(); }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    SessionWriter &m_writer;
    std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> m_ids;
};

} // namespace stepscope

#pragma once
// textDigest: 64-bit FNV-1a of a text as 16 hex digits. Names what a stored result was computed
// from (rules text, a run's inputs); not a defence against a crafted collision — a session that
// lies about its own inputs only misleads its own author.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace stepscope {

inline std::string textDigest(std::string_view text) {
    uint64_t h = 14695981039346656037ull;
    for (const char c : text) {
        h ^= uint8_t(c);
        h *= 1099511628211ull;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    return hex;
}

} // namespace stepscope

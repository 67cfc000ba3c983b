#pragma once
// Lower-casing of ASCII letters only, whatever the process's locale: std::tolower follows the C
// locale, which Qt sets from the environment, and under Turkish locales turns 'I' into a dotless
// 'ı' (or leaves it) — "PCIe" must become "pcie" on every machine. Bytes outside A-Z are unchanged.

#include <string>
#include <string_view>

namespace stepscope {

constexpr char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
constexpr bool asciiAlnum(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

inline std::string asciiLower(std::string_view text) {
    std::string out(text);
    for (char &c : out) c = asciiLower(c);
    return out;
}

} // namespace stepscope

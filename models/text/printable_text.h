#pragma once
// The one text sanitiser: isControlCharacter says which characters from files (and from the
// user's file system) would drive a terminal or a view instead of showing — C0 controls, DEL and C1
// controls (U+0080–U+009F). printableText writes them as a visible \xNN for terminals and text
// (import_log messages, the text report, every command-line message that quotes a path or a
// name), markdownText also escapes markdown, and displayText (display_text.h) draws them as U+FFFD
// in the views; everything else, UTF-8 included, is kept.

#include <string>
#include <string_view>

namespace stepscope {

constexpr bool isControlCharacter(char32_t c) { return c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0); }

inline std::string printableText(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        // A C1 control is two bytes in UTF-8: C2 80 … C2 9F.
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        const bool c1 = c == 0xC2 && next >= 0x80 && isControlCharacter(next);
        if (!c1 && (c >= 0x80 || !isControlCharacter(c))) {
            out += char(c);
            continue;
        }
        if (c1) c = static_cast<unsigned char>(text[++i]);
        out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
    return out;
}

// printableText with a backslash before every character markdown or HTML would interpret: names
// in markdown reports stay text.
inline std::string markdownText(std::string_view text) {
    std::string out;
    for (char c : printableText(text)) {
        if (std::string_view("\\`*_{}[]()<>#+-.!|&~").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

} // namespace stepscope

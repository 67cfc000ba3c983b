#pragma once
// printableText: names and paths from files (and from the user's file system) shown as text that
// cannot drive a terminal or a view: C0 controls, DEL and C1 controls (U+0080–U+009F) become a
// visible \xNN; everything else, UTF-8 included, is kept. Used by import_log messages, the text
// report and every command-line message that quotes a path or a name; markdownText for markdown.

#include <string>
#include <string_view>

namespace stepscope {

inline std::string printableText(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) < 0xA0;
        if (c >= 0x20 && c != 0x7F && !c1) {
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

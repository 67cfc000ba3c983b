#include "models/text/display_text.h"

#include "models/text/printable_text.h"

#include <algorithm>

namespace stepscope {

QString displayText(QString text) {
    for (QChar &c : text) {
        const char16_t u = c.unicode();
        if ((isControlCharacter(u) && u != u'\t' && u != u'\n') || u == 0xFFFE || u == 0xFFFF) c = QChar::ReplacementCharacter;
    }
    return text;
}

namespace {
// At most maxChars characters of utf8[0, end) (cut at a character start), elided with "…" when
// anything visible was left out, and fit to draw.
QString bounded(std::string_view utf8, size_t end, int maxChars) {
    maxChars = std::max(1, maxChars);
    // A character is at most 4 bytes: decode no more than can be shown.
    size_t cut = std::min(end, size_t(maxChars) * 4 + 4);
    while (cut < end && cut > 0 && (static_cast<unsigned char>(utf8[cut]) & 0xC0) == 0x80) --cut;
    QString s = QString::fromUtf8(utf8.data(), qsizetype(cut));
    while (s.endsWith(QLatin1Char('\r')) || s.endsWith(QLatin1Char('\n'))) s.chop(1);
    bool elided = cut < end || utf8.find_first_not_of(" \t\r\n", end) != std::string_view::npos;
    if (s.size() > maxChars) {
        s.truncate(maxChars);
        if (s.back().isHighSurrogate()) s.chop(1);
        elided = true;
    }
    if (elided) s += QChar(0x2026);
    return displayText(std::move(s));
}
} // namespace

QString labelText(std::string_view utf8, int maxChars) {
    const size_t first = utf8.find_first_not_of(" \t\r\n");  // the first line with something on it
    if (first == std::string_view::npos) return {};
    utf8.remove_prefix(first);
    return bounded(utf8, std::min(utf8.find('\n'), utf8.size()), maxChars);
}

QString excerptText(std::string_view utf8, int maxChars) { return bounded(utf8, utf8.size(), maxChars); }

} // namespace stepscope

#pragma once
// Text from files and users, made fit to draw: names and notes are stored verbatim (storage keeps the
// truth) and escaped by whoever displays them. Control characters (isControlCharacter, the one
// sanitiser's rule) other than tab and newline are drawn as U+FFFD (visible, and valid in every
// output: an SVG with a raw \x01 is not XML), and a
// note's label is its first line, cut to a bounded length, so a 5 MB note costs what a short one
// does. Pure functions; the timeline, annotation and export views call them.

#include <QString>

#include <string_view>

namespace stepscope {

// Characters a label shows at most (then "…").
inline constexpr int kMaxLabelChars = 200;

// `text` with control characters other than tab and newline, and the non-characters U+FFFE/U+FFFF,
// as U+FFFD.
QString displayText(QString text);
// The first non-blank line of `utf8`, at most maxChars characters (elided with "…" when more
// follows), fit to draw. Decodes at most 4 bytes per character shown, however long `utf8` is.
QString labelText(std::string_view utf8, int maxChars = kMaxLabelChars);
// Like labelText, but keeping the lines: at most maxChars characters of `utf8` (a tooltip's worth).
QString excerptText(std::string_view utf8, int maxChars);

} // namespace stepscope

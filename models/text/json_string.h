#pragma once
// appendJsonString writes text as a JSON string literal (quotes, escapes, control characters as
// \u00XX, invalid UTF-8 bytes as U+FFFD so the result is always valid JSON): the one hand-written
// JSON string of Stepscope. Importers that build args JSON from binary formats (XPlane stats, Nsight
// Systems columns) and the synthetic trace writer use it; whole documents (the report, compare and
// query output, saved layouts) are QJsonDocument's, which escapes them itself.

#include <string>
#include <string_view>

namespace stepscope {

void appendJsonString(std::string &out, std::string_view text);

} // namespace stepscope

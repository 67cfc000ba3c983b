#pragma once
// JsonScan: the small, allocation-free JSON scanning primitives the Chrome-trace tokenizer is built
// on (skip a value, read a string with unescaping into caller scratch, read numbers). Every function
// works on a [p, end) range that may stop in the middle of a value: it then answers Incomplete, so a
// streaming caller can fetch more bytes and retry. Also used by TraceEventBuffer to walk the
// members of an event's raw `args` text (counters).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::json {

enum class Scan { Ok, Incomplete, Malformed };

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

inline const char *skipSpace(const char *p, const char *end) {
    while (p < end && isSpace(*p))
        ++p;
    return p;
}

// Skips one JSON value starting at *p (no leading whitespace). On Ok *p points just past it. A
// number or literal that reaches `end` is Incomplete unless `atEof` (then it ends there).
Scan skipValue(const char *&p, const char *end, bool atEof = false);

// Reads a string starting at the opening quote. Without escapes `out` views the input; with
// escapes the unescaped text is appended to `scratch` (which must have enough capacity reserved
// that it never reallocates while views into it are alive) and `out` views that.
Scan readString(const char *&p, const char *end, std::string_view &out, std::string &scratch);

// Reads a number token (or the raw text of any scalar) starting at *p; `out` views its text.
Scan readNumberText(const char *&p, const char *end, std::string_view &out, bool atEof = false);

// Decimal text of microseconds → int64 nanoseconds, exactly (no double): "1712195495406752.8" →
// 1712195495406752800. Accepts sign, fraction and exponent; sub-ns digits round half away from
// zero. nullopt for text that is not a number or lies beyond ±2^62 ns (kTimeLimitNs).
std::optional<int64_t> microsTextToNs(std::string_view text);

// Integer text (a fractional part is truncated, exponent honoured); nullopt when not a number.
std::optional<int64_t> parseInteger(std::string_view text);

// Floating value of number text; nullopt when not a finite number.
std::optional<double> parseDouble(std::string_view text);

// Calls fn(key, rawValueText) for each member of a complete object text ("{...}"). Stops early when
// fn returns false. Returns false when the text is not a well-formed object.
template <typename Fn>
bool forEachMember(std::string_view object, std::string &scratch, Fn &&fn) {
    const char *p = object.data();
    const char *end = p + object.size();
    p = skipSpace(p, end);
    if (p == end || *p != '{')
        return false;
    p = skipSpace(p + 1, end);
    if (p < end && *p == '}')
        return true;
    while (p < end) {
        std::string_view key;
        if (*p != '"' || readString(p, end, key, scratch) != Scan::Ok)
            return false;
        p = skipSpace(p, end);
        if (p == end || *p != ':')
            return false;
        p = skipSpace(p + 1, end);
        const char *valueStart = p;
        if (skipValue(p, end, true) != Scan::Ok)
            return false;
        if (!fn(key, std::string_view(valueStart, size_t(p - valueStart))))
            return true;
        p = skipSpace(p, end);
        if (p < end && *p == ',') {
            p = skipSpace(p + 1, end);
            continue;
        }
        return p < end && *p == '}';
    }
    return false;
}

// Text of a JSON string value without quotes (unescaped into scratch when needed), or the raw text
// of a scalar otherwise.
std::string_view scalarText(std::string_view raw, std::string &scratch);

} // namespace stepscope::json

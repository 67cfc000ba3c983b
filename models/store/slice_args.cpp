#include "models/store/slice_args.h"

#include <cctype>
#include <cstdlib>

namespace stepscope::slice_args {

namespace {
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t skipSpace(std::string_view s, size_t i) {
    while (i < s.size() && space(s[i])) ++i;
    return i;
}

// End (one past) of the JSON string starting at the quote s[i]; npos when unterminated.
size_t stringEnd(std::string_view s, size_t i) {
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\') ++i;
        else if (s[i] == '"') return i + 1;
    }
    return std::string_view::npos;
}

// End (one past) of the value starting at s[i]; npos when malformed.
size_t valueEnd(std::string_view s, size_t i) {
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '"') return stringEnd(s, i);
    if (s[i] == '[' || s[i] == '{') {
        int depth = 0;
        for (; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '"') {
                i = stringEnd(s, i);
                if (i == std::string_view::npos) return i;
                --i;
            } else if (c == '[' || c == '{') ++depth;
            else if ((c == ']' || c == '}') && --depth == 0) return i + 1;
        }
        return std::string_view::npos;
    }
    size_t e = i;
    while (e < s.size() && s[e] != ',' && s[e] != '}' && s[e] != ']' && !space(s[e])) ++e;
    return e > i ? e : std::string_view::npos;
}
} // namespace

std::optional<std::string_view> value(std::string_view json, std::string_view key) {
    // Walk the top-level members so that a key inside a nested value or a string never matches.
    size_t i = skipSpace(json, 0);
    if (i >= json.size() || json[i] != '{') return std::nullopt;
    i = skipSpace(json, i + 1);
    while (i < json.size() && json[i] == '"') {
        const size_t ke = stringEnd(json, i);
        if (ke == std::string_view::npos) return std::nullopt;
        const std::string_view k = json.substr(i + 1, ke - i - 2);
        i = skipSpace(json, ke);
        if (i >= json.size() || json[i] != ':') return std::nullopt;
        i = skipSpace(json, i + 1);
        const size_t ve = valueEnd(json, i);
        if (ve == std::string_view::npos) return std::nullopt;
        if (k == key) return json.substr(i, ve - i);
        i = skipSpace(json, ve);
        if (i < json.size() && json[i] == ',') i = skipSpace(json, i + 1);
    }
    return std::nullopt;
}

std::string compact(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') {
            const size_t e = stringEnd(text, i);
            const size_t n = (e == std::string_view::npos ? text.size() : e) - i;
            out.append(text.substr(i, n));
            i += n - 1;
        } else if (!space(text[i])) {
            out += text[i];
        }
    }
    return out;
}

std::optional<std::vector<int64_t>> firstInputDims(std::string_view json) {
    const auto v = value(json, "Input Dims");
    if (!v) return std::nullopt;
    const std::string_view s = *v;
    size_t i = skipSpace(s, 0);
    if (i >= s.size() || s[i] != '[') return std::nullopt;
    i = skipSpace(s, i + 1);
    if (i >= s.size() || s[i] != '[') return std::nullopt;
    std::vector<int64_t> dims;
    i = skipSpace(s, i + 1);
    while (i < s.size() && s[i] != ']') {
        if (!std::isdigit(static_cast<unsigned char>(s[i])) && s[i] != '-') return std::nullopt;
        bool neg = s[i] == '-';
        if (neg) ++i;
        int64_t n = 0;
        size_t digits = 0;
        for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, ++digits)
            if (digits < 18) n = n * 10 + (s[i] - '0');
        if (digits == 0) return std::nullopt;
        dims.push_back(neg ? -n : n);
        i = skipSpace(s, i);
        if (i < s.size() && s[i] == ',') i = skipSpace(s, i + 1);
    }
    if (i >= s.size()) return std::nullopt;
    return dims;
}

namespace {
// Reads one list of integers at s[i] ("[64, 3, 224, 224]"); i ends one past its ']'.
std::optional<std::vector<int64_t>> readIntList(std::string_view s, size_t &i) {
    i = skipSpace(s, i);
    if (i >= s.size() || s[i] != '[') return std::nullopt;
    std::vector<int64_t> out;
    i = skipSpace(s, i + 1);
    while (i < s.size() && s[i] != ']') {
        const bool neg = s[i] == '-';
        if (neg) ++i;
        int64_t n = 0;
        size_t digits = 0;
        for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, ++digits)
            if (digits < 18) n = n * 10 + (s[i] - '0');
        if (digits == 0 || digits > 18) return std::nullopt;  // not an integer, or too large to be a size
        out.push_back(neg ? -n : n);
        i = skipSpace(s, i);
        if (i < s.size() && s[i] == ',') i = skipSpace(s, i + 1);
    }
    if (i >= s.size()) return std::nullopt;
    ++i;
    return out;
}
} // namespace

std::optional<std::vector<int64_t>> intList(std::string_view text) {
    size_t i = 0;
    auto v = readIntList(text, i);
    if (!v || skipSpace(text, i) != text.size()) return std::nullopt;
    return v;
}

namespace {
constexpr size_t kMaxListItems = 64;

// Calls fn(item text) for the first kMaxListItems items of the list under `key` (the raw JSON of each).
template <class Fn> void forEachItem(std::string_view json, std::string_view key, Fn fn) {
    const auto v = value(json, key);
    if (!v) return;
    const std::string_view s = *v;
    size_t i = skipSpace(s, 0);
    if (i >= s.size() || s[i] != '[') return;
    i = skipSpace(s, i + 1);
    for (size_t n = 0; i < s.size() && s[i] != ']' && n < kMaxListItems; ++n) {
        const size_t e = valueEnd(s, i);
        if (e == std::string_view::npos) return;
        fn(s.substr(i, e - i));
        i = skipSpace(s, e);
        if (i < s.size() && s[i] == ',') i = skipSpace(s, i + 1);
    }
}
} // namespace

std::vector<std::optional<std::vector<int64_t>>> inputDims(std::string_view json) {
    std::vector<std::optional<std::vector<int64_t>>> out;
    // A list of integers, or nullopt: a list of tensors, or something else.
    forEachItem(json, "Input Dims", [&](std::string_view item) { out.push_back(intList(item)); });
    return out;
}

std::vector<std::string> stringList(std::string_view json, std::string_view key) {
    std::vector<std::string> out;
    forEachItem(json, key, [&](std::string_view item) {
        if (item.size() >= 2 && item.front() == '"') item = item.substr(1, item.size() - 2);  // no escapes in these values
        out.emplace_back(item);
    });
    return out;
}

std::optional<double> number(std::string_view json, std::string_view key) {
    const auto v = value(json, key);
    if (!v || v->empty()) return std::nullopt;
    std::string text(v->front() == '"' && v->size() >= 2 ? v->substr(1, v->size() - 2) : *v);
    char *end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(d >= 0) || d > 1e30) return std::nullopt;  // also refuses NaN
    return d;
}

} // namespace stepscope::slice_args

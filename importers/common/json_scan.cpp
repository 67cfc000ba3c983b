#include "importers/common/json_scan.h"

#include "models/store/ns_range.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace stepscope::json {
namespace {

__extension__ typedef unsigned __int128 u128;  // exact µs→ns arithmetic without double

inline bool isScalarChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
}

// Skips a string whose opening quote is at p[-1]; p ends past the closing quote.
inline Scan skipStringBody(const char *&p, const char *end) {
    while (true) {
        const char *q = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
        if (!q)
            return Scan::Incomplete;
        // The quote is escaped when preceded by an odd run of backslashes.
        const char *b = q;
        while (b > p && b[-1] == '\\')
            --b;
        if (((q - b) & 1) == 0) {
            p = q + 1;
            return Scan::Ok;
        }
        p = q + 1;
    }
}

void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool readHex4(const char *p, uint32_t &v) {
    v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return false;
        v = v * 16 + uint32_t(h);
    }
    return true;
}

} // namespace

Scan skipValue(const char *&p, const char *end, bool atEof) {
    if (p >= end)
        return Scan::Incomplete;
    const char c = *p;
    if (c == '"') {
        const char *q = p + 1;
        const Scan s = skipStringBody(q, end);
        if (s == Scan::Ok)
            p = q;
        return s;
    }
    if (c == '{' || c == '[') {
        int depth = 0;
        const char *q = p;
        while (q < end) {
            const char d = *q++;
            if (d == '"') {
                if (skipStringBody(q, end) != Scan::Ok)
                    return Scan::Incomplete;
            } else if (d == '{' || d == '[') {
                ++depth;
            } else if (d == '}' || d == ']') {
                if (--depth == 0) {
                    p = q;
                    return Scan::Ok;
                }
            }
        }
        return Scan::Incomplete;
    }
    std::string_view text;
    return readNumberText(p, end, text, atEof);
}

Scan readNumberText(const char *&p, const char *end, std::string_view &out, bool atEof) {
    const char *q = p;
    while (q < end && isScalarChar(*q))
        ++q;
    if (q == end && !atEof)
        return Scan::Incomplete;
    if (q == p)
        return Scan::Malformed;
    out = std::string_view(p, size_t(q - p));
    p = q;
    return Scan::Ok;
}

Scan readString(const char *&p, const char *end, std::string_view &out, std::string &scratch) {
    const char *start = p + 1;
    const char *q = start;
    // Fast path: no backslash before the closing quote.
    while (q < end && *q != '"' && *q != '\\')
        ++q;
    if (q == end)
        return Scan::Incomplete;
    if (*q == '"') {
        out = std::string_view(start, size_t(q - start));
        p = q + 1;
        return Scan::Ok;
    }
    // Slow path: make sure the whole string is present, then unescape.
    const char *close = start;
    if (skipStringBody(close, end) != Scan::Ok)
        return Scan::Incomplete;
    const size_t from = scratch.size();
    scratch.append(start, size_t(q - start));
    while (q < close - 1) {
        const char ch = *q++;
        if (ch != '\\') {
            scratch.push_back(ch);
            continue;
        }
        const char e = *q++;
        switch (e) {
        case '"': scratch.push_back('"'); break;
        case '\\': scratch.push_back('\\'); break;
        case '/': scratch.push_back('/'); break;
        case 'b': scratch.push_back('\b'); break;
        case 'f': scratch.push_back('\f'); break;
        case 'n': scratch.push_back('\n'); break;
        case 'r': scratch.push_back('\r'); break;
        case 't': scratch.push_back('\t'); break;
        case 'u': {
            uint32_t cp = 0;
            if (close - 1 - q < 4 || !readHex4(q, cp))
                return Scan::Malformed;
            q += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && close - 1 - q >= 6 && q[0] == '\\' && q[1] == 'u') {
                uint32_t lo = 0;
                if (readHex4(q + 2, lo) && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    q += 6;
                }
            }
            appendUtf8(scratch, cp);
            break;
        }
        default:
            return Scan::Malformed;
        }
    }
    out = std::string_view(scratch.data() + from, scratch.size() - from);
    p = close;
    return Scan::Ok;
}

std::optional<int64_t> microsTextToNs(std::string_view text) {
    const char *p = text.data();
    const char *end = p + text.size();
    bool negative = false;
    if (p < end && (*p == '-' || *p == '+'))
        negative = *p++ == '-';
    u128 mantissa = 0;
    int digits = 0;        // significant digits accumulated
    int scale = 3;         // power of ten applied to the mantissa (µs → ns)
    bool any = false;
    for (; p < end && *p >= '0' && *p <= '9'; ++p) {
        any = true;
        if (digits < 36) {
            mantissa = mantissa * 10 + unsigned(*p - '0');
            if (mantissa) ++digits;
        } else {
            ++scale;  // integer digit beyond what we keep
        }
    }
    if (p < end && *p == '.') {
        for (++p; p < end && *p >= '0' && *p <= '9'; ++p) {
            any = true;
            if (digits < 36) {
                mantissa = mantissa * 10 + unsigned(*p - '0');
                if (mantissa) ++digits;
                --scale;
            } else {
                }
        }
    }
    if (!any)
        return std::nullopt;
    if (p < end && (*p == 'e' || *p == 'E')) {
        ++p;
        bool expNeg = false;
        if (p < end && (*p == '-' || *p == '+'))
            expNeg = *p++ == '-';
        int exp = 0;
        bool expAny = false;
        for (; p < end && *p >= '0' && *p <= '9'; ++p) {
            expAny = true;
            if (exp < 10000)
                exp = exp * 10 + (*p - '0');
        }
        if (!expAny)
            return std::nullopt;
        scale += expNeg ? -exp : exp;
    }
    if (p != end)
        return std::nullopt;
    // Times beyond ±2^62 ns (146 years) are not times: refused like text, so a time plus a duration
    // or a time base never overflows (kTimeLimitNs).
    constexpr u128 kMax = u128(kTimeLimitNs - 1);
    if (mantissa == 0)
        return int64_t(0);
    if (scale >= 0) {
        for (int i = 0; i < scale; ++i) {
            mantissa *= 10;
            if (mantissa > kMax)
                return std::nullopt;
        }
    } else {
        if (scale < -38)
            return int64_t(0);
        u128 div = 1;
        for (int i = 0; i < -scale; ++i)
            div *= 10;
        const u128 q = mantissa / div;
        const u128 r = mantissa % div;
        mantissa = q + (r * 2 >= div ? 1 : 0);  // half away from zero (sign applied below)
    }
    if (mantissa > kMax)
        return std::nullopt;
    const int64_t v = int64_t(mantissa);
    return negative ? -v : v;
}

std::optional<int64_t> parseInteger(std::string_view text) {
    if (text.empty())
        return std::nullopt;
    int64_t v = 0;
    const char *b = text.data();
    const char *e = b + text.size();
    if (*b == '+')
        ++b;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr == b)
        return std::nullopt;
    if (ptr == e)
        return v;
    if (*ptr == '.' || *ptr == 'e' || *ptr == 'E') {
        const auto d = parseDouble(text);
        if (!d || std::fabs(*d) > 9.2e18)
            return std::nullopt;
        return int64_t(*d);
    }
    return std::nullopt;
}

std::optional<double> parseDouble(std::string_view text) {
    const char *b = text.data();
    const char *e = b + text.size();
    if (b < e && *b == '+')
        ++b;
    double v = 0;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::string_view scalarText(std::string_view raw, std::string &scratch) {
    if (!raw.empty() && raw.front() == '"') {
        const char *p = raw.data();
        std::string_view out;
        if (readString(p, raw.data() + raw.size(), out, scratch) == Scan::Ok)
            return out;
        return {};
    }
    return raw;
}

} // namespace stepscope::json

#include "importers/metrics/metric_text.h"

#include "models/text/printable_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>

namespace stepscope::metrics {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

static char lowerChar(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lowerChar(a[i]) != lowerChar(b[i])) return false;
    return true;
}

bool icontains(std::string_view haystack, std::string_view needle) {
    if (needle.empty()) return true;
    for (size_t i = 0; i + needle.size() <= haystack.size(); ++i)
        if (iequals(haystack.substr(i, needle.size()), needle)) return true;
    return false;
}

std::string toLower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = lowerChar(c);
    return out;
}

void splitFields(std::string_view line, char sep, std::vector<std::string_view> &out) {
    out.clear();
    size_t start = 0;
    while (true) {
        size_t pos = line.find(sep, start);
        if (pos == std::string_view::npos) {
            out.push_back(trim(line.substr(start)));
            return;
        }
        out.push_back(trim(line.substr(start, pos - start)));
        start = pos + 1;
    }
}

void splitCsv(std::string_view line, char sep, std::vector<std::string> &out) {
    out.clear();
    std::string field;
    bool inQuotes = false, wasQuoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') { field += '"'; ++i; }
                else inQuotes = false;
            } else {
                field += c;
            }
        } else if (c == '"' && trim(field).empty()) {
            field.clear();
            inQuotes = wasQuoted = true;
        } else if (c == sep) {
            out.push_back(wasQuoted ? field : std::string(trim(field)));
            field.clear();
            wasQuoted = false;
        } else if (!(wasQuoted && (c == ' ' || c == '\t' || c == '\r'))) {
            field += c;
        }
    }
    out.push_back(wasQuoted ? field : std::string(trim(field)));
}

void splitWhitespace(std::string_view line, std::vector<std::string_view> &out) {
    out.clear();
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        size_t start = i;
        while (i < line.size() && !(line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
}

bool isMissing(std::string_view field) {
    field = trim(field);
    if (field.size() >= 2 && field.front() == '[' && field.back() == ']') field = field.substr(1, field.size() - 2);
    return field.empty() || field == "-" || iequals(field, "N/A") || iequals(field, "NA") ||
           iequals(field, "Not Supported") || iequals(field, "nan") || iequals(field, "null") ||
           iequals(field, "Unknown Error") || iequals(field, "Insufficient Permissions") ||
           iequals(field, "Requested functionality has been deprecated");
}

namespace {
// Length of the valid UTF-8 character at text[i], or 0 when the bytes there are not one.
size_t utf8Length(std::string_view text, size_t i) {
    const auto b = static_cast<unsigned char>(text[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
    return n;
}
} // namespace

std::string fieldSample(std::string_view field) {
    static constexpr char kHex[] = "0123456789abcdef";
    constexpr size_t kShown = 48;
    std::string shown;
    size_t i = 0;
    while (i < field.size() && i < kShown) {
        if (const size_t n = utf8Length(field, i)) {
            shown.append(field.substr(i, n));
            i += n;
        } else {  // not UTF-8: the byte's value
            const auto b = static_cast<unsigned char>(field[i++]);
            shown += {'\\', 'x', kHex[b >> 4], kHex[b & 15]};
        }
    }
    shown = printableText(shown);
    return i < field.size() ? shown + "… (" + std::to_string(field.size()) + " bytes)" : shown;
}

bool looksLikeBrokenNumber(std::string_view field) {
    field = trim(field);
    if (field.empty()) return false;
    const char c = field.front();
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') return true;
    for (const char b : field)
        if (static_cast<unsigned char>(b) < 0x20 || static_cast<unsigned char>(b) >= 0x7F) return true;
    return false;
}

std::optional<double> parseNumber(std::string_view field) {
    field = trim(field);
    if (!field.empty() && field.front() == '+') field.remove_prefix(1);
    if (field.empty()) return std::nullopt;
    // from_chars accepts "inf"/"nan"; only digits, sign, '.', exponent may start a number here.
    char c0 = field.front() == '-' && field.size() > 1 ? field[1] : field.front();
    if (!((c0 >= '0' && c0 <= '9') || c0 == '.')) return std::nullopt;
    double v = 0;
    auto res = std::from_chars(field.data(), field.data() + field.size(), v);
    if (res.ec != std::errc() || res.ptr != field.data() + field.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<double> parseNumberWithUnit(std::string_view field, std::string *unit) {
    field = trim(field);
    size_t end = 0;
    while (end < field.size() && field[end] != ' ' && field[end] != '\t') ++end;
    auto v = parseNumber(field.substr(0, end));
    if (!v) return std::nullopt;
    if (unit) *unit = std::string(trim(field.substr(end)));
    return v;
}

std::optional<int64_t> parseInt(std::string_view field) {
    field = trim(field);
    if (!field.empty() && field.front() == '+') field.remove_prefix(1);
    int64_t v = 0;
    auto res = std::from_chars(field.data(), field.data() + field.size(), v);
    if (field.empty() || res.ec != std::errc() || res.ptr != field.data() + field.size()) return std::nullopt;
    return v;
}

std::optional<int64_t> secondsToNs(std::string_view field) {
    field = trim(field);
    bool neg = !field.empty() && field.front() == '-';
    std::string_view body = neg ? field.substr(1) : field;
    size_t dot = body.find('.');
    std::string_view ip = body.substr(0, dot), fp = dot == std::string_view::npos ? std::string_view() : body.substr(dot + 1);
    bool plain = !body.empty() && ip.size() <= 11 && (!ip.empty() || !fp.empty());
    for (char c : ip) plain = plain && c >= '0' && c <= '9';
    for (char c : fp) plain = plain && c >= '0' && c <= '9';
    if (!plain) {
        auto v = parseNumber(field);
        if (!v || std::fabs(*v) > 9.2e9) return std::nullopt;
        return int64_t(std::llround(*v * 1e9));
    }
    int64_t secs = 0;
    for (char c : ip) secs = secs * 10 + (c - '0');
    if (secs >= INT64_MAX / 1000000000LL) return std::nullopt;  // past 2262: not representable in ns
    int64_t frac = 0;
    for (size_t i = 0; i < 9; ++i) frac = frac * 10 + (i < fp.size() ? fp[i] - '0' : 0);
    if (fp.size() > 9 && fp[9] >= '5') ++frac;  // round half up at the ns digit
    int64_t ns = secs * 1000000000LL + frac;
    return neg ? -ns : ns;
}

int64_t civilToUnixSeconds(int year, int month, int day, int hour, int minute, int second) {
    // Howard Hinnant's days_from_civil.
    int64_t y = year - (month <= 2 ? 1 : 0);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t mp = (month + 9) % 12;
    int64_t doy = (153 * mp + 2) / 5 + day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + doe - 719468;
    return days * 86400 + hour * 3600 + minute * 60 + second;
}

namespace {
bool readDigits(std::string_view s, size_t &i, size_t n, int &out) {
    if (i + n > s.size()) return false;
    int v = 0;
    for (size_t k = 0; k < n; ++k) {
        char c = s[i + k];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    i += n;
    return true;
}
} // namespace

std::optional<CivilTime> parseCivilTime(std::string_view text) {
    std::string_view s = trim(text);
    CivilTime t;
    size_t i = 0;
    if (!readDigits(s, i, 4, t.year) || i >= s.size() || (s[i] != '-' && s[i] != '/')) return std::nullopt;
    char dsep = s[i++];
    if (!readDigits(s, i, 2, t.month) || i >= s.size() || s[i++] != dsep || !readDigits(s, i, 2, t.day))
        return std::nullopt;
    if (i < s.size() && (s[i] == 'T' || s[i] == ' ')) {
        ++i;
        if (!readDigits(s, i, 2, t.hour) || i >= s.size() || s[i++] != ':' || !readDigits(s, i, 2, t.minute))
            return std::nullopt;
        if (i < s.size() && s[i] == ':') {
            ++i;
            if (!readDigits(s, i, 2, t.second)) return std::nullopt;
            if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
                ++i;
                size_t digits = 0;
                while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
                    if (digits < 9) t.fracNs = t.fracNs * 10 + (s[i] - '0');
                    ++digits;
                    ++i;
                }
                if (digits == 0) return std::nullopt;
                for (size_t k = digits; k < 9; ++k) t.fracNs *= 10;
            }
        }
    }
    std::string_view zone = trim(s.substr(i));
    if (zone == "Z" || iequals(zone, "UTC") || iequals(zone, "GMT")) {
        t.utcOffsetSeconds = 0;
    } else if (!zone.empty() && (zone[0] == '+' || zone[0] == '-')) {
        size_t k = 1;
        int hh = 0, mm = 0;
        if (!readDigits(zone, k, 2, hh)) return std::nullopt;
        if (k < zone.size() && zone[k] == ':') ++k;
        if (k < zone.size() && !readDigits(zone, k, 2, mm)) return std::nullopt;
        if (k != zone.size()) return std::nullopt;
        t.utcOffsetSeconds = (zone[0] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
    } else if (!zone.empty()) {
        return std::nullopt;
    }
    if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 60)
        return std::nullopt;
    if (t.year < 1678 || t.year > 2261) return std::nullopt;  // outside the int64 ns epoch range
    return t;
}

int64_t CivilTimeConverter::localMinuteToUnix(const CivilTime &t) {
    int64_t key = ((((int64_t(t.year) * 13 + t.month) * 32 + t.day) * 24 + t.hour) * 60) + t.minute;
    if (key != m_cacheKey) {
        std::tm tm{};
        tm.tm_year = t.year - 1900;
        tm.tm_mon = t.month - 1;
        tm.tm_mday = t.day;
        tm.tm_hour = t.hour;
        tm.tm_min = t.minute;
        tm.tm_sec = 0;
        tm.tm_isdst = -1;
        std::time_t v = std::mktime(&tm);
        m_cacheValue = v == std::time_t(-1) ? civilToUnixSeconds(t.year, t.month, t.day, t.hour, t.minute, 0)
                                            : int64_t(v);
        m_cacheKey = key;
    }
    return m_cacheValue;
}

int64_t CivilTimeConverter::toEpochNs(const CivilTime &t) {
    int64_t secs;
    if (t.utcOffsetSeconds)
        secs = civilToUnixSeconds(t.year, t.month, t.day, t.hour, t.minute, t.second) - *t.utcOffsetSeconds;
    else
        secs = localMinuteToUnix(t) + t.second;
    return secs * 1000000000LL + t.fracNs;
}

EpochUnit guessEpochUnit(double magnitude) {
    magnitude = std::fabs(magnitude);
    if (magnitude < 1e11) return EpochUnit::Seconds;
    if (magnitude < 1e14) return EpochUnit::Millis;
    if (magnitude < 1e17) return EpochUnit::Micros;
    return EpochUnit::Nanos;
}

std::optional<int64_t> epochToNs(std::string_view field, EpochUnit unit) {
    field = trim(field);
    if (unit == EpochUnit::Seconds) return secondsToNs(field);
    if (auto i = parseInt(field)) {
        int64_t mul = unit == EpochUnit::Millis ? 1000000 : unit == EpochUnit::Micros ? 1000 : 1;
        if (mul > 1 && (*i > INT64_MAX / mul || *i < INT64_MIN / mul)) return std::nullopt;
        return *i * mul;
    }
    auto v = parseNumber(field);
    if (!v) return std::nullopt;
    double mul = unit == EpochUnit::Millis ? 1e6 : unit == EpochUnit::Micros ? 1e3 : 1.0;
    double ns = *v * mul;
    if (std::fabs(ns) > 9.2e18) return std::nullopt;
    return int64_t(std::llround(ns));
}

void SpacingTracker::add(int64_t tNs) {
    if (m_have && m_spacings.size() < kMaxSpacings && tNs > m_last) m_spacings.push_back(tNs - m_last);
    if (!m_have || tNs > m_last) m_last = tNs;
    m_have = true;
}

int64_t SpacingTracker::median() const {
    if (m_spacings.empty()) return 0;
    std::vector<int64_t> v = m_spacings;
    auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

int64_t SampleCounter::sampleFor(int64_t device) {
    if (m_sample < 0 || std::find(m_seen.begin(), m_seen.end(), device) != m_seen.end()) {
        ++m_sample;
        m_seen.clear();
    }
    m_seen.push_back(device);
    return m_sample;
}

} // namespace stepscope::metrics

#pragma once
// Text helpers shared by the instance-metric tokenizers (pure C++, no store): trimming, field
// splitting (delimited and quoted CSV, whitespace columns), strict number parsing, "missing value"
// markers, and calendar/epoch time parsing. Called by every parser in importers/metrics/.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool iequals(std::string_view a, std::string_view b);
bool icontains(std::string_view haystack, std::string_view needle);
std::string toLower(std::string_view s);

// Splits on `sep`; fields are trimmed. No quoting (nvidia-smi, sadf).
void splitFields(std::string_view line, char sep, std::vector<std::string_view> &out);
// RFC 4180-style field splitting on one line: "a, ""b""" quoting; fields trimmed and unquoted.
void splitCsv(std::string_view line, char sep, std::vector<std::string> &out);
// Splits on runs of blanks (spaces, tabs).
void splitWhitespace(std::string_view line, std::vector<std::string_view> &out);

// `N/A`, `[N/A]`, `[Not Supported]`, `-`, empty, `nan`, `null`: the source has no value.
bool isMissing(std::string_view field);

// Strict decimal number (sign, digits, '.', exponent); the whole field must be consumed.
// NaN/inf are rejected.
std::optional<double> parseNumber(std::string_view field);
// A field as a log message quotes it: control bytes and invalid UTF-8 as \xNN, at most 48 bytes of it
// ("12345…" and its size after a long one: a 10 MB field makes a short message).
std::string fieldSample(std::string_view field);
// A value that is no number but was surely meant as one: it starts like a number (a digit, sign or
// point: "1e999", ten million digits) or holds control bytes or bytes outside ASCII. A word ("NVIDIA
// H100", "Enabled") is not: such a column is text.
bool looksLikeBrokenNumber(std::string_view field);
// A number optionally followed by a unit ("87 %", "1234 MiB", "70.89 W"); unit returned in `unit`.
std::optional<double> parseNumberWithUnit(std::string_view field, std::string *unit = nullptr);
// An integer that fits int64.
std::optional<int64_t> parseInt(std::string_view field);

// A decimal number of seconds (e.g. "1591748109.2321954") to integer nanoseconds without the
// rounding loss of going through double; exponent forms fall back to double.
std::optional<int64_t> secondsToNs(std::string_view field);

// Civil date/time (proleptic Gregorian) to Unix seconds, as UTC.
int64_t civilToUnixSeconds(int year, int month, int day, int hour, int minute, int second);

struct CivilTime {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int64_t fracNs = 0;
    // Zone: set when the text named one ("Z", "+02:00", "UTC").
    std::optional<int> utcOffsetSeconds;
};

// Parses "YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH[:]MM| UTC| GMT]" and "YYYY/MM/DD HH:MM:SS.mmm".
// Returns nullopt when the text is not such a time (trailing junk included).
std::optional<CivilTime> parseCivilTime(std::string_view text);

// Unix-epoch ns of a civil time: with its own zone when it has one, otherwise as local time of
// this process (TZ; UTC when unset). Local conversion is cached per minute.
class CivilTimeConverter {
public:
    int64_t toEpochNs(const CivilTime &t);
private:
    int64_t localMinuteToUnix(const CivilTime &t);
    int64_t m_cacheKey = -1;
    int64_t m_cacheValue = 0;
};

// Epoch ns from a bare number of unknown unit, chosen by magnitude: < 1e11 seconds, < 1e14 ms,
// < 1e17 µs, else ns. `unitOut` receives "s", "ms", "us" or "ns".
enum class EpochUnit { Seconds, Millis, Micros, Nanos };
EpochUnit guessEpochUnit(double magnitude);
std::optional<int64_t> epochToNs(std::string_view field, EpochUnit unit);

// Median of (up to the first few thousand) spacings between consecutive times; 0 when unknown.
class SpacingTracker {
public:
    void add(int64_t tNs);
    int64_t median() const;
private:
    static constexpr size_t kMaxSpacings = 4096;
    std::vector<int64_t> m_spacings;
    int64_t m_last = 0;
    bool m_have = false;
};

// Sample numbering for logs without timestamps that print one row per GPU per sample: a new
// sample starts when a device already seen in the current one appears again.
class SampleCounter {
public:
    int64_t sampleFor(int64_t device);  // 0-based sample number of this row
private:
    std::vector<int64_t> m_seen;
    int64_t m_sample = -1;
};

} // namespace stepscope::metrics

#include "models/text/duration_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace stepscope {

namespace {

std::optional<double> unitNs(const std::string &u) {
    if (u == "ns") return 1.0;
    if (u == "us" || u == "\xc2\xb5s" || u == "\xce\xbcs") return 1e3;  // us, µs (micro sign, Greek mu)
    if (u == "ms") return 1e6;
    if (u == "s") return 1e9;
    if (u == "m" || u == "min") return 60e9;
    if (u == "h") return 3600e9;
    if (u == "d") return 86400e9;
    return std::nullopt;
}

std::optional<int64_t> fail(std::string *error, const std::string &why) {
    if (error) *error = why;
    return std::nullopt;
}

} // namespace

std::optional<int64_t> DurationText::parse(const std::string &input, std::string *error) {
    std::string text;
    for (char c : input)
        if (!std::isspace(static_cast<unsigned char>(c))) text += c;
    size_t pos = 0;
    double sign = 1;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) sign = text[pos++] == '-' ? -1 : 1;
    if (text.substr(pos) == "0") return 0;
    if (pos >= text.size()) return fail(error, "'" + input + "' is not a duration (e.g. +1.5s, -250ms, 3us)");
    long double total = 0;
    while (pos < text.size()) {
        const size_t numStart = pos;
        while (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.')) ++pos;
        const std::string num = text.substr(numStart, pos - numStart);
        const size_t unitStart = pos;
        while (pos < text.size() && !std::isdigit(static_cast<unsigned char>(text[pos])) && text[pos] != '.') ++pos;
        const std::string unit = text.substr(unitStart, pos - unitStart);
        char *end = nullptr;
        const double value = num.empty() ? 0 : std::strtod(num.c_str(), &end);
        if (num.empty() || end != num.c_str() + num.size() || num.find('.') != num.rfind('.'))
            return fail(error, "'" + input + "': expected a number before '" + unit + "'");
        const auto mul = unitNs(unit);
        if (!mul)
            return fail(error, "'" + input + "': " + (unit.empty() ? std::string("a unit is needed after ") + num
                                                                    : "unknown unit '" + unit + "'") +
                                   " (ns, us, ms, s, min, h, d)");
        total += (long double)value * (long double)*mul;
    }
    total *= sign;
    if (std::fabs((double)total) > 9.0e18) return fail(error, "'" + input + "' is too large");
    return int64_t(std::llround((double)total));
}

std::string DurationText::format(int64_t ns) {
    if (ns == 0) return "0 s";
    const char *sign = ns < 0 ? "-" : "+";
    const uint64_t a = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    struct U { uint64_t ns; const char *name; };
    static const U units[] = {{3'600'000'000'000, "h"}, {60'000'000'000, "min"}, {1'000'000'000, "s"},
                              {1'000'000, "ms"}, {1'000, "\xc2\xb5s"}, {1, "ns"}};
    for (const U &u : units) {
        // The largest unit that shows the value exactly with at most three decimals.
        if (a < u.ns || (u.ns >= 1000 && a % (u.ns / 1000) != 0)) continue;
        std::string s = std::to_string(a / u.ns);
        if (const uint64_t frac = u.ns >= 1000 ? (a % u.ns) / (u.ns / 1000) : 0) {
            char buf[24];
            std::snprintf(buf, sizeof buf, ".%03llu", static_cast<unsigned long long>(frac));
            std::string f = buf;
            while (f.back() == '0') f.pop_back();
            s += f;
        }
        return sign + s + " " + u.name;
    }
    return sign + std::to_string(a) + " ns";
}

} // namespace stepscope

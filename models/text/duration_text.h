#pragma once
// DurationText parses and prints signed durations the user types for clock offsets: "+1.5s",
// "-250ms", "3us", "2min", "1h30min", "500ns". Shared by the `import --offset` option and the
// clock-offset dialog so both accept the same text. Pure functions.

#include <cstdint>
#include <optional>
#include <string>

namespace stepscope {

class DurationText {
public:
    // Signed sum of NUMBER UNIT parts (units: ns, us, µs, ms, s, min, m, h, d; decimals allowed).
    // nullopt with `error` set on bad syntax, a missing unit or overflow. "0" alone is accepted.
    static std::optional<int64_t> parse(const std::string &text, std::string *error = nullptr);
    // "+1.5 s", "-250 ms", "+3 µs", "0 s": the largest unit that shows the value in ≤ 3 decimals
    // without loss where possible.
    static std::string format(int64_t ns);
};

} // namespace stepscope

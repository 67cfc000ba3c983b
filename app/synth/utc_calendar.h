#pragma once
// UtcCalendar: proleptic-Gregorian conversion between Unix-epoch nanoseconds and UTC calendar fields,
// with no time-zone database. The generator uses it for its default epoch and the nvidia-smi writer for
// its time stamps, so output never depends on TZ or the host's locale.

#include <cstdint>
#include <string>

namespace stepscope::synth {

struct UtcCalendar {
    // Days since 1970-01-01 (H. Hinnant's days_from_civil).
    static constexpr int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
        y -= m <= 2;
        const int64_t era = (y >= 0 ? y : y - 399) / 400;
        const auto yoe = static_cast<unsigned>(y - era * 400);
        const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
        const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + static_cast<int64_t>(doe) - 719468;
    }

    static constexpr int64_t epochNs(int64_t y, unsigned mo, unsigned d, unsigned h = 0, unsigned mi = 0,
                                     unsigned s = 0) {
        return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60'000'000'000LL + s * 1'000'000'000LL;
    }

    // "YYYY/MM/DD HH:MM:SS.mmm" as nvidia-smi prints its timestamp column (here in UTC).
    static std::string nvidiaSmiTimestamp(int64_t epochNs);
};

} // namespace stepscope::synth

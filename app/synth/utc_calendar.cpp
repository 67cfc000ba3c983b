#include "app/synth/utc_calendar.h"

#include <cstdio>

namespace stepscope::synth {

std::string UtcCalendar::nvidiaSmiTimestamp(int64_t epochNs) {
    const int64_t ms = epochNs >= 0 ? epochNs / 1'000'000 : (epochNs - 999'999) / 1'000'000;
    int64_t days = ms >= 0 ? ms / 86'400'000 : (ms - 86'399'999) / 86'400'000;
    const int64_t msOfDay = ms - days * 86'400'000;
    // civil_from_days (H. Hinnant)
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
    const auto msd = static_cast<unsigned>(msOfDay); // 0 .. 86'399'999
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld/%02u/%02u %02u:%02u:%02u.%03u", static_cast<long long>(y), m, d,
                  msd / 3'600'000u, msd / 60'000u % 60u, msd / 1000u % 60u, msd % 1000u);
    return buf;
}

} // namespace stepscope::synth

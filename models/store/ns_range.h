#pragma once
// NsRange is the one time-range type: [start, end) in nanoseconds — absolute Unix-epoch ns (or raw
// trace ns for sessions without an epoch) unless a caller says otherwise. The session's extent, a
// run's span, the visible and selected ranges of the linked zoom, a query's window: all NsRange.

#include <cstdint>

namespace stepscope {

// The largest magnitude a time (or a time base) read from a file may have: ±2^62 ns, ±146 years
// around 1970. Two such values add up inside int64, so offsets and bases never overflow; a file's
// time beyond it is refused (or ignored) with a warning by the importer that reads it.
inline constexpr int64_t kTimeLimitNs = int64_t(1) << 62;
constexpr bool timeInRange(int64_t ns) { return ns > -kTimeLimitNs && ns < kTimeLimitNs; }

struct NsRange {
    int64_t start = 0;
    int64_t end = 0;
    int64_t duration() const { return end - start; }
    bool valid() const { return end > start; }
    bool operator==(const NsRange &o) const = default;
};

} // namespace stepscope

#pragma once
// NsRange is the one time-range type: [start, end) in nanoseconds — absolute Unix-epoch ns (or raw
// trace ns for sessions without an epoch) unless a caller says otherwise. The session's extent, a
// run's span, the visible and selected ranges of the linked zoom, a query's window: all NsRange.

#include <cstdint>

namespace stepscope {

struct NsRange {
    int64_t start = 0;
    int64_t end = 0;
    int64_t duration() const { return end - start; }
    bool valid() const { return end > start; }
    bool operator==(const NsRange &o) const = default;
};

} // namespace stepscope

#pragma once
// TimelineItemFolder turns the slices (or level-of-detail groups) of one track, fed in start order,
// into the draw list for one frame: a slice at least one pixel wide stays itself; runs of narrower
// slices whose gaps are under a pixel merge into one density block that keeps their count, summed
// busy time and dominant (longest) name (Tracy's folding). Nothing is dropped: the counts of the
// items it emits add up to the events fed in. Used by TimelineModel::fetch; pure, tested directly.

#include "models/timeline/timeline_lod.h"
#include "models/timeline/timeline_types.h"

#include <vector>

namespace stepscope {

class TimelineItemFolder {
public:
    // Times fed in are relative; items come out absolute (+ baseNs). minWidthNs is one pixel.
    // Depths beyond maxDepth (the track's last lane) are drawn on it: a depth read from a file
    // never sizes the pending list beyond the track's lanes.
    TimelineItemFolder(int64_t baseNs, double minWidthNs, std::vector<TimelineItem> &out,
                       uint32_t maxDepth = kMaxTimelineDepth - 1);

    // One real slice. Slices of the same depth must come in start order.
    void addSlice(int64_t start, int64_t dur, int64_t id, int32_t name, uint32_t depth);
    // `count` sub-pixel events of one depth known only as a group within [start, end).
    void addGroup(int64_t start, int64_t end, uint32_t count, int64_t busyNs, int32_t name, int64_t longestNs,
                  uint32_t depth);
    // Emits what is still pending; call once at the end.
    void finish();

private:
    struct Pending {
        int64_t start = 0, end = 0, busy = 0, longest = -1, id = -1;
        uint32_t count = 0;
        int32_t name = 0;
        bool single = false;  // exactly one known slice: emit it as itself
    };
    Pending &pending(uint32_t depth);
    void flush(uint32_t depth);

    int64_t m_base;
    int64_t m_minWidth;
    uint32_t m_maxDepth;
    std::vector<TimelineItem> &m_out;
    std::vector<Pending> m_pending;
};

} // namespace stepscope

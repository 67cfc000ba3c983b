#include "models/timeline/timeline_item_folder.h"

#include <algorithm>
#include <cmath>

namespace stepscope {

TimelineItemFolder::TimelineItemFolder(int64_t baseNs, double minWidthNs, std::vector<TimelineItem> &out, uint32_t maxDepth)
    : m_base(baseNs), m_minWidth(std::max<int64_t>(1, int64_t(std::ceil(minWidthNs)))),
      m_maxDepth(std::min<uint32_t>(maxDepth, kMaxTimelineDepth - 1)), m_out(out) {}

TimelineItemFolder::Pending &TimelineItemFolder::pending(uint32_t depth) {
    if (m_pending.size() <= depth) m_pending.resize(depth + 1);
    return m_pending[depth];
}

void TimelineItemFolder::addSlice(int64_t start, int64_t dur, int64_t id, int32_t name, uint32_t depth) {
    depth = std::min(depth, m_maxDepth);
    if (dur >= m_minWidth) {
        flush(depth);
        TimelineItem it;
        it.startNs = m_base + start;
        it.durNs = dur;
        it.busyNs = dur;
        it.sliceId = id;
        it.nameId = name;
        it.depth = depth;
        m_out.push_back(it);
        return;
    }
    Pending &p = pending(depth);
    if (p.count > 0 && start - p.end < m_minWidth) {
        p.end = std::max(p.end, start + dur);
        p.busy += dur;
        ++p.count;
        p.single = false;
        if (dur > p.longest) { p.longest = dur; p.name = name; }
        return;
    }
    flush(depth);
    Pending &q = pending(depth);
    q = Pending{start, start + dur, dur, dur, id, 1, name, true};
}

void TimelineItemFolder::addGroup(int64_t start, int64_t end, uint32_t count, int64_t busyNs, int32_t name,
                                  int64_t longestNs, uint32_t depth) {
    if (count == 0) return;
    depth = std::min(depth, m_maxDepth);
    Pending &p = pending(depth);
    if (p.count > 0 && start - p.end < m_minWidth) {
        p.end = std::max(p.end, end);
        p.busy += busyNs;
        p.count += count;
        p.single = false;
        if (longestNs > p.longest) { p.longest = longestNs; p.name = name; }
        return;
    }
    flush(depth);
    Pending &q = pending(depth);
    q = Pending{start, std::max(start, end), busyNs, longestNs, -1, count, name, false};
}

void TimelineItemFolder::flush(uint32_t depth) {
    if (depth >= m_pending.size()) return;
    Pending &p = m_pending[depth];
    if (p.count == 0) return;
    TimelineItem it;
    it.startNs = m_base + p.start;
    it.durNs = p.end - p.start;
    it.busyNs = p.busy;
    it.sliceId = p.single ? p.id : -1;
    it.nameId = p.name;
    it.count = p.count;
    it.depth = depth;
    it.block = !p.single;
    m_out.push_back(it);
    p = Pending{};
}

void TimelineItemFolder::finish() {
    for (uint32_t d = 0; d < m_pending.size(); ++d) flush(d);
}

} // namespace stepscope

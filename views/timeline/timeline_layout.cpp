#include "views/timeline/timeline_layout.h"

#include <algorithm>

namespace stepscope {

void TimelineLayout::rebuild(const TimelineModel &model) {
    m_rows.clear();
    m_trackRow.assign(model.tracks().size(), -1);
    int y = 0;
    const auto &groups = model.groups();
    for (int g = 0; g < int(groups.size()); ++g) {
        if (groups[size_t(g)].parent != -1) continue;
        if (groups[size_t(g)].children.empty()) continue;  // a run with nothing to draw
        m_rows.push_back({TimelineRow::Kind::RunHeader, g, y, kRunHeaderHeight});
        y += kRunHeaderHeight;
        if (isCollapsed(g)) continue;
        for (int sub : groups[size_t(g)].children) {
            m_rows.push_back({TimelineRow::Kind::GroupHeader, sub, y, kGroupHeaderHeight});
            y += kGroupHeaderHeight;
            if (isCollapsed(sub)) continue;
            for (int t : groups[size_t(sub)].tracks) {
                if (isHidden(t)) continue;
                const int h = model.tracks()[size_t(t)].depthCount * kLaneHeight + 2 * kTrackPadding;
                m_trackRow[size_t(t)] = int(m_rows.size());
                m_rows.push_back({TimelineRow::Kind::Track, t, y, h});
                y += h;
            }
        }
    }
    m_height = y;
}

const TimelineRow *TimelineLayout::rowAt(int y) const {
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y, [](int v, const TimelineRow &r) { return v < r.y; });
    if (it == m_rows.begin()) return nullptr;
    --it;
    return y < it->y + it->height ? &*it : nullptr;
}

const TimelineRow *TimelineLayout::trackRow(int track) const {
    if (track < 0 || track >= int(m_trackRow.size()) || m_trackRow[size_t(track)] < 0) return nullptr;
    return &m_rows[size_t(m_trackRow[size_t(track)])];
}

void TimelineLayout::setCollapsed(int group, bool collapsed) {
    if (collapsed) m_collapsed.insert(group); else m_collapsed.remove(group);
}

void TimelineLayout::setHidden(int track, bool hidden) {
    if (hidden) m_hidden.insert(track); else m_hidden.remove(track);
}

void TimelineLayout::resetChoices() {
    m_collapsed.clear();
    m_hidden.clear();
}

} // namespace stepscope

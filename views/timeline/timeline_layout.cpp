#include "views/timeline/timeline_layout.h"

#include <algorithm>
#include <utility>

namespace stepscope {

void TimelineLayout::rebuild(const TimelineModel &model) {
    m_rows.clear();
    m_trackRow.assign(model.tracks().size(), -1);
    int y = 0;
    const auto &groups = model.groups();
    for (int g = 0; g < int(groups.size()); ++g) {
        if (groups[size_t(g)].parent != -1) continue;
        if (groups[size_t(g)].children.empty()) continue;  // a run with nothing to draw
        if (const int below = compactRows(model, g, y); below != y) {
            y = below;
            continue;
        }
        m_rows.push_back({TimelineRow::Kind::RunHeader, g, y, kRunHeaderHeight});
        y += kRunHeaderHeight;
        if (isCollapsed(g)) continue;
        for (int sub : groups[size_t(g)].children) {
            m_rows.push_back({TimelineRow::Kind::GroupHeader, sub, y, kGroupHeaderHeight});
            y += kGroupHeaderHeight;
            if (isCollapsed(sub)) continue;
            for (int t : trackOrder(model, sub)) {
                if (isHidden(t)) continue;
                const TimelineTrack &track = model.tracks()[size_t(t)];
                const int h = track.isValueTrack() ? kValueTrackHeight : track.depthCount * kLaneHeight + 2 * kTrackPadding;
                m_trackRow[size_t(t)] = int(m_rows.size());
                m_rows.push_back({TimelineRow::Kind::Track, t, y, h});
                y += h;
            }
        }
    }
    m_height = y;
}

int TimelineLayout::compactRows(const TimelineModel &model, int run, int y) {
    bool first = true;
    for (int t : m_compact) {
        if (t < 0 || t >= int(model.tracks().size())) continue;
        const TimelineTrack &track = model.tracks()[size_t(t)];
        if (track.isValueTrack() || model.groups()[size_t(track.group)].parent != run) continue;
        TimelineRow row{TimelineRow::Kind::Track, t, y, 0};
        row.lanes = std::max(1, std::min(track.depthCount, track.kind == QLatin1String("host_thread") ? kCompactHostLanes : 1));
        row.laneHeight = kCompactLaneHeight;
        row.padding = kCompactPadding;
        row.height = row.lanes * kCompactLaneHeight + 2 * kCompactPadding;
        row.runTitle = std::exchange(first, false);
        m_trackRow[size_t(t)] = int(m_rows.size());
        m_rows.push_back(row);
        y += row.height;
    }
    return y;
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

std::vector<int> TimelineLayout::trackOrder(const TimelineModel &model, int group) const {
    if (group < 0 || group >= int(model.groups().size())) return {};
    const std::vector<int> &natural = model.groups()[size_t(group)].tracks;
    auto it = m_order.constFind(group);
    if (it == m_order.constEnd() || it->size() != natural.size()) return natural;
    return *it;
}

int TimelineLayout::positionInGroup(const TimelineModel &model, int track) const {
    if (track < 0 || track >= int(model.tracks().size())) return -1;
    const std::vector<int> order = trackOrder(model, model.tracks()[size_t(track)].group);
    const auto it = std::find(order.begin(), order.end(), track);
    return it == order.end() ? -1 : int(it - order.begin());
}

bool TimelineLayout::moveTrack(const TimelineModel &model, int track, int index) {
    const int from = positionInGroup(model, track);
    if (from < 0) return false;
    const int group = model.tracks()[size_t(track)].group;
    std::vector<int> order = trackOrder(model, group);
    const int to = std::clamp(index, 0, int(order.size()) - 1);
    if (to == from) return false;
    order.erase(order.begin() + from);
    order.insert(order.begin() + to, track);
    m_order.insert(group, std::move(order));
    return true;
}

void TimelineLayout::resetChoices() {
    m_collapsed.clear();
    m_hidden.clear();
    m_order.clear();
}

} // namespace stepscope

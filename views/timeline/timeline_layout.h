#pragma once
// TimelineLayout places the timeline's rows vertically: run headers, device/host sub-group headers
// and tracks (one lane per nesting depth), honouring collapsed groups and hidden tracks. TimelineView
// owns one, rebuilds it when the model or the user's choices change, and asks it which row is at y.

#include "models/timeline/timeline_model.h"

#include <QSet>

#include <vector>

namespace stepscope {

struct TimelineRow {
    enum class Kind { RunHeader, GroupHeader, Track };
    Kind kind = Kind::Track;
    int index = 0;   // group index (headers) or track index
    int y = 0;       // content coordinates (0 = first row, before scrolling)
    int height = 0;
};

class TimelineLayout {
public:
    static constexpr int kLaneHeight = 18;
    static constexpr int kTrackPadding = 3;
    static constexpr int kRunHeaderHeight = 24;
    static constexpr int kGroupHeaderHeight = 20;

    void rebuild(const TimelineModel &model);
    const std::vector<TimelineRow> &rows() const { return m_rows; }
    int contentHeight() const { return m_height; }
    // The row at content y, or nullptr.
    const TimelineRow *rowAt(int y) const;
    // The row showing track `track`, or nullptr when it is hidden or folded away.
    const TimelineRow *trackRow(int track) const;
    static int laneY(const TimelineRow &row, uint32_t depth) { return row.y + kTrackPadding + int(depth) * kLaneHeight; }

    bool isCollapsed(int group) const { return m_collapsed.contains(group); }
    void setCollapsed(int group, bool collapsed);
    bool isHidden(int track) const { return m_hidden.contains(track); }
    void setHidden(int track, bool hidden);
    void showAllTracks() { m_hidden.clear(); }
    int hiddenCount() const { return int(m_hidden.size()); }
    void resetChoices();

private:
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_trackRow;  // track index -> row index or -1
    QSet<int> m_collapsed, m_hidden;
    int m_height = 0;
};

} // namespace stepscope

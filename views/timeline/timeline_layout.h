#pragma once
// TimelineLayout places the timeline's rows vertically: run headers, device/host sub-group headers
// and tracks (one lane per nesting depth; counter and metric tracks a fixed-height chart), honouring
// the user's choices: collapsed groups, hidden tracks and the order of tracks within a group. The
// choices are saved as names (run / group / track), so they survive re-opening and re-importing.
// TimelineView owns one, rebuilds it when the model or the choices change, asks it which row is at y.

#include "models/timeline/timeline_model.h"

#include <QByteArray>
#include <QHash>
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
    static constexpr int kValueTrackHeight = 44;

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
    // The tracks of sub-group `group` in the user's order (the model's where none was chosen).
    std::vector<int> trackOrder(const TimelineModel &model, int group) const;
    // Moves `track` to position `index` within its sub-group (clamped); false when nothing moved.
    bool moveTrack(const TimelineModel &model, int track, int index);
    int positionInGroup(const TimelineModel &model, int track) const;
    void resetChoices();
    // The choices as JSON keyed by names, and back (unknown names are ignored).
    QByteArray saveChoices(const TimelineModel &model) const;
    void restoreChoices(const TimelineModel &model, const QByteArray &json);

private:
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_trackRow;  // track index -> row index or -1
    QSet<int> m_collapsed, m_hidden;
    QHash<int, std::vector<int>> m_order;  // sub-group -> its tracks, only where the user reordered
    int m_height = 0;
};

} // namespace stepscope

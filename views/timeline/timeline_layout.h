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

#include <algorithm>

#include <vector>

namespace stepscope {

struct TimelineRow {
    enum class Kind { RunHeader, GroupHeader, Track };
    Kind kind = Kind::Track;
    int index = 0;   // group index (headers) or track index
    int y = 0;       // content coordinates (0 = first row, before scrolling)
    int height = 0;
    // Compact rows (ranks aligned, TimelineLayout::setCompactTracks) draw only their first `lanes`
    // depths in thinner lanes, and the first row of a run names the run (it has no header row).
    int lanes = 0;          // 0: every depth of the track
    int laneHeight = 18;    // TimelineLayout::kLaneHeight, or kCompactLaneHeight
    int padding = 3;        // TimelineLayout::kTrackPadding, or kCompactPadding
    bool runTitle = false;  // compact: this row's label carries its run's title
    bool compact() const { return lanes > 0; }
};

class TimelineLayout {
public:
    static constexpr int kLaneHeight = 18;
    static constexpr int kTrackPadding = 3;
    static constexpr int kRunHeaderHeight = 24;
    static constexpr int kGroupHeaderHeight = 20;
    static constexpr int kValueTrackHeight = 44;
    static constexpr int kCompactLaneHeight = 14;
    static constexpr int kCompactPadding = 1;
    static constexpr int kCompactHostLanes = 2;  // the step marker and the phases under it

    void rebuild(const TimelineModel &model);
    const std::vector<TimelineRow> &rows() const { return m_rows; }
    int contentHeight() const { return m_height; }
    // The row at content y, or nullptr.
    const TimelineRow *rowAt(int y) const;
    // The row showing track `track`, or nullptr when it is hidden or folded away.
    const TimelineRow *trackRow(int track) const;
    // The lane a depth is drawn in: itself, or a compact row's last lane for deeper ones (flows and
    // search hits that point at them).
    static uint32_t laneOf(const TimelineRow &row, uint32_t depth) {
        return row.compact() ? std::min<uint32_t>(depth, uint32_t(row.lanes - 1)) : depth;
    }
    static int laneY(const TimelineRow &row, uint32_t depth) { return row.y + row.padding + int(laneOf(row, depth)) * row.laneHeight; }

    // Compact mode (ranks aligned at a step): the runs that hold any of `tracks` show just those,
    // each in a few thin lanes (kCompactHostLanes for a host thread, one for a GPU stream), without
    // header rows; the user's choices (collapsed, hidden, order) are left as they are and apply again
    // when the list is empty. Other runs are laid out as usual.
    void setCompactTracks(std::vector<int> tracks) { m_compact = std::move(tracks); }
    bool isCompact() const { return !m_compact.empty(); }
    const std::vector<int> &compactTracks() const { return m_compact; }

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
    std::vector<int> m_compact;  // compact mode's tracks, in display order per run; empty: off
    int m_height = 0;
    int compactRows(const TimelineModel &model, int run, int y);  // -> y after them; y unchanged: none
};

} // namespace stepscope

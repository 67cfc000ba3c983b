#pragma once
// TimelineLayoutState turns the timeline's track layout (hidden tracks, collapsed groups) into the
// text a saved view stores in `bookmark.layout`, and back. Tracks and groups are named by their
// titles ("run/group/track"), not indices, so a saved view still applies after a re-import.
// Called by SavedViewListView when saving and applying a view.

#include <string>

namespace stepscope {

class TimelineView;

class TimelineLayoutState {
public:
    static std::string capture(TimelineView &view);
    // Applies a captured layout (empty: show everything expanded). Names no longer present are skipped.
    static void apply(TimelineView &view, const std::string &layout);
};

} // namespace stepscope

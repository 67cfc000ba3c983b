#pragma once
// Checks of the level-of-detail cache read from a session file. The cache is derived data, but the
// file may come from anyone: before its values size anything (per-depth arrays, lanes, loops over
// levels) TimelineLodCache asks these checks whether they are what TimelineLodWriter writes for
// such data — depth_count within kMaxTimelineDepth and equal to the deepest cell's depth + 1, levels
// contiguous and in range, cells sorted, each in the bucket of its longest slice, counts adding up
// to the track's slices, times within kLodTimeLimit. A cache that fails is rebuilt (or, read-only,
// built in memory), never used.

#include "models/timeline/timeline_lod_cache.h"

#include <string>

namespace stepscope {

// The values of one timeline_lod_track row, checked on their own; empty when plausible, else why not.
std::string checkTrackRow(int64_t slices, int64_t depthCount, int64_t startNs, int64_t endNs, int64_t finestLevel);
// One level's cells of a summarised track (t's row already passed checkTrackRow); empty when valid.
std::string checkLodLevel(const TrackLod &t, int level, const std::vector<LodCell> &cells);
// A whole track once its levels are read: empty when valid. For a track without summary, `realCount`
// and `realMaxDepth` are what its slices hold (count capped just past kLodMinSlices).
std::string checkTrackLod(const TrackLod &t, int64_t realCount, int64_t realMaxDepth);

} // namespace stepscope

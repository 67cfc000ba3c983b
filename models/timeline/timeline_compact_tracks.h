#pragma once
// The tracks that matter when the ranks of a job are compared at one step (the timeline's compact
// aligned mode, issue #15): per run, its main host thread — the one with the most slices, where the
// profiler's step markers and the phases under them are — and its busiest GPU stream (most kernels).
// Read from the model's track list; no query, no copy of events.

#include "models/timeline/timeline_model.h"

#include <vector>

namespace stepscope {

// Track indices for run `runId`: host thread first, then GPU stream; either may be missing. A run
// with neither gets its busiest other event track, so it never vanishes from the view.
std::vector<int> compactTracksOf(const TimelineModel &model, int64_t runId);

} // namespace stepscope

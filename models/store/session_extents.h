#pragma once
// The session overview's time extents: each run's span (from the timeline's summary when it is
// current — a few rows instead of a scan of every slice, 2 s at 10 M events — else from the slices)
// and the span of the instance metrics (each series' first and last sample through its index).
// Absolute ns, the user's clock offsets included. Called by SessionModel.

#include "models/store/ns_range.h"
#include "models/store/session_store.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace stepscope {

struct RunExtent {
    int64_t runId = 0;
    NsRange range;
};

// Each run's extent (its events; metrics not included), in the session's run order; runs without
// events are left out.
std::vector<RunExtent> storedRunExtents(const SessionStore &store);
// The first and last metric sample's times (equal for a single sample); none without samples.
std::optional<NsRange> storedMetricExtent(const SessionStore &store);

} // namespace stepscope

#pragma once
// TimelineLodWriter builds the timeline's level-of-detail cache (tables timeline_lod_track and
// timeline_lod, migration 3) from the slice table, in one streaming pass per session content, and
// stores it through TimelineLodStore with a fingerprint of the imported sources, so that it runs
// again only after an import changed them. Called by TimelineModel when it opens a session (first open after an import) and by the
// import command, which may call it right after committing so that the first GUI open is instant.

#include "models/store/session_store.h"
#include "models/timeline/timeline_lod.h"

#include <functional>
#include <string>
#include <vector>

namespace stepscope {

class TimelineLodWriter {
public:
    explicit TimelineLodWriter(SessionStore &store) : m_store(store) {}

    // True when the cache matches the session's content.
    bool upToDate() const;
    // Rebuilds the cache when it is stale; returns true when it (re)built. Needs a read-write store.
    bool ensure();
    // Rebuilds unconditionally, in one transaction.
    void rebuild();

private:
    SessionStore &m_store;
};

// The summary of one track as the writer computes it; exposed for TimelineLodCache's in-memory
// build of read-only sessions and for tests.
struct TrackLodBuild {
    int64_t trackId = 0;
    int64_t slices = 0;
    int depthCount = 0;
    int64_t startNs = 0, endNs = 0;
    int finestLevel = -1;
    std::vector<std::vector<LodCell>> levels;  // levels[i] is level finestLevel + i
};

// Streams every slice of the session in (track, start) order and calls `sink` once per track
// (tracks below kLodMinSlices come with finestLevel -1 and no levels).
void buildTrackLods(const SessionStore &store, const std::function<void(TrackLodBuild &&)> &sink);

} // namespace stepscope

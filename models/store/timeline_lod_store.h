#pragma once
// TimelineLodStore reads and writes the timeline's level-of-detail tables (timeline_lod_track,
// timeline_lod, timeline_lod_state; resources/schema/003_timeline_lod.sql) and the fingerprint of
// the imported content they were built from. What a level's cells mean is the timeline's
// (models/timeline/timeline_lod.h): here they are the stored bytes. Called by TimelineLodWriter
// (rewrite), TimelineLodCache (read) and the session's extents (whether the summary is current).

#include "models/store/session_connection.h"
#include "models/store/session_store.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

// One track's summary row, as stored (a session may come from anyone: the reader checks it).
struct StoredLodTrack {
    int64_t trackId = 0, slices = 0, depthCount = 0;
    int64_t startNs = 0, endNs = 0;  // relative to the run's time base
    int64_t finestLevel = -1;        // -1: no summary
};

// One level of one track: its cells' bytes, valid during the visit only.
struct StoredLodLevel {
    int64_t trackId = 0, level = 0;
    std::string_view cells;
};

// A track read directly (no summary): how many of its first slices there are, and their deepest depth.
struct StoredTrackSample {
    int64_t trackId = 0, slices = 0, maxDepth = 0;
};

class TimelineLodStore {
public:
    explicit TimelineLodStore(const SessionConnection &connection) : m_conn(connection) {}
    explicit TimelineLodStore(const SessionStore &store) : m_conn(store.connection()) {}

    // The imported content's identity: sources (id, import time, events) and the highest slice id.
    std::string contentFingerprint() const;
    // True when the stored summary was built from the content as it is now.
    bool upToDate() const;

    // Replaces the whole summary in one transaction: `produce` calls `add` once per track, with
    // the cells of its levels finest first; then the current fingerprint is recorded. An exception
    // (from `produce` too) rolls everything back and is rethrown. Needs a read-write connection.
    using AddTrack = std::function<void(const StoredLodTrack &track, const std::vector<std::string_view> &levelCells)>;
    void rewrite(const std::function<void(const AddTrack &add)> &produce);

    // The stored rows; `visit` returns false to stop. Levels come by (track, level).
    void forEachTrack(const std::function<bool(const StoredLodTrack &)> &visit) const;
    void forEachLevel(const std::function<bool(const StoredLodLevel &)> &visit) const;
    // For each track, its first `limit` slices counted (through the track's index).
    std::vector<StoredTrackSample> firstSlices(const std::vector<int64_t> &trackIds, int64_t limit) const;

private:
    const SessionConnection &m_conn;
};

} // namespace stepscope

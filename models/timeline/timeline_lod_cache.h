#pragma once
// TimelineLodCache holds the timeline's level-of-detail summaries in memory: per track, the packed
// cells of every level (read as one blob per level at open, so opening is a few large reads), plus,
// per depth, the cells whose longest slice reaches past its bucket (to find slices that began before
// a window and still cover it). Owned by TimelineModel; it makes the cache current on open
// (TimelineLodWriter) or, for read-only sessions with a stale cache, builds it in memory. A stored
// cache whose values fail the checks of timeline_lod_check.h is treated as stale: rebuilt, or built
// in memory when the session is read-only; its values never size anything.

#include "models/store/session_store.h"
#include "models/timeline/timeline_lod.h"

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope {

class TimelineLodStore;

struct TrackLod {
    int64_t slices = 0;
    int depthCount = 0;
    int64_t startNs = 0, endNs = 0;      // relative
    int finestLevel = -1;                // -1: no summary, read slices directly
    std::vector<std::vector<LodCell>> levels;  // levels[i] is level finestLevel + i
    std::vector<std::vector<uint32_t>> wide;   // per depth: indices into levels[0]

    bool summarised() const { return finestLevel >= 0 && !levels.empty(); }
    int coarsestLevel() const { return finestLevel + int(levels.size()) - 1; }
    // Cells of `level` with bucket in [b0, b1], sorted by (bucket, depth).
    std::span<const LodCell> cells(int level, int64_t b0, int64_t b1) const;
    // Slices starting in [t0, t1] (relative), counted at a coarse level: may over-count at the edges.
    int64_t estimateCount(int64_t t0, int64_t t1) const;
};

class TimelineLodCache {
public:
    // Brings the cache up to date (read-write stores) and loads it.
    void load(SessionStore &store);
    void clear() { m_tracks.clear(); }
    const TrackLod *track(int64_t trackId) const;
    size_t memoryBytes() const;
    bool builtOnLoad() const { return m_built; }
    // Why the stored cache was not used on the last load (it failed a check), or empty.
    const std::string &rejectedCache() const { return m_rejected; }

private:
    // Reads and checks the stored cache; false (nothing kept, m_rejected says why) when it fails.
    bool readCache(const SessionStore &store);
    bool readCacheRows(const TimelineLodStore &stored);
    void buildInMemory(const SessionStore &store);
    static void indexWide(TrackLod &t);

    std::unordered_map<int64_t, TrackLod> m_tracks;
    bool m_built = false;
    std::string m_rejected;
};

} // namespace stepscope

#pragma once
// TimelineSliceCache reads exact slices for the timeline when it is zoomed in far enough: per track
// one buffered window (chosen by TimelineModel: the request plus a margin, so panning re-uses it), read
// through the slice(track_id, start_ns) index, plus the few long slices that began before the window
// and still cover it (found from the level-of-detail cache, without scanning). Tracks too small to
// summarise are read whole, once. Owned by TimelineModel; holds compact 32-byte rows. The rows come
// through the store's SliceReader (its statements prepared once per session).

#include "models/store/slice_reader.h"
#include "models/timeline/timeline_lod_cache.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace stepscope {

struct RawSlice {
    int64_t start = 0;  // relative
    int64_t dur = 0;
    int64_t id = -1;    // -1 for a covering slice known from the summary; resolved on demand
    int32_t name = 0;
    uint32_t depth = 0;
};

struct RawFlow {
    int64_t fromId = 0, toId = 0;
    int64_t fromTrack = 0, toTrack = 0;
    int64_t fromEnd = 0, toStart = 0;  // relative to each track's run
    uint32_t fromDepth = 0, toDepth = 0;
};

// A stored flow with its times and depths clamped as the timeline clamps slices (timeline_lod.h).
RawFlow clampedFlow(const StoredFlow &f);

class TimelineSliceCache {
public:
    struct Window {
        int64_t lo = 0, hi = 0;        // relative, half-open
        bool whole = false;
        std::vector<RawSlice> slices;  // sorted by start
        bool flowsLoaded = false;
        std::vector<RawFlow> flows;    // flows touching the window's slices
    };

    // What to read for a window [lo, hi) of a track: the whole track when it has no summary, else
    // from `reach` before lo (slices shorter than a finest bucket that still cover lo).
    struct Span {
        int64_t lo = 0, hi = 0;
        bool whole = false;
        int64_t reach = 0;
        int64_t queryFrom() const;
        int64_t queryTo() const;
    };
    static Span span(const TrackLod *lod, int64_t lo, int64_t hi);
    // The rows of one span, by start, clamped; and the flows touching them (deduplicated). Any
    // thread, with a reader of its own.
    static std::vector<RawSlice> querySlices(SliceReader &reader, int64_t trackId, int64_t from, int64_t to);
    static std::vector<RawFlow> queryFlows(SliceReader &reader, int64_t trackId, int64_t from, int64_t to);

    // The session to read (nullptr: none); forgets every window.
    void setStore(const SessionStore *store);
    void clear() { m_windows.clear(); m_reach.clear(); }
    // The reader of the session set (nullptr when none), for single-slice questions on the same thread.
    SliceReader *reader() const { return m_reader.get(); }

    // The cached window covering [t0, t1] (relative) for this track, or nullptr.
    const Window *cached(int64_t trackId, int64_t t0, int64_t t1) const;
    // Loads [lo, hi) (relative; the whole track when it has no summary), replacing the track's
    // previous window, and returns it.
    const Window &load(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi);
    // Installs rows read elsewhere (TimelineWindowLoader) for `span` as the track's window; flows
    // too when they were read with them.
    const Window &install(int64_t trackId, const TrackLod *lod, const Span &span, std::vector<RawSlice> slices,
                          const std::vector<RawFlow> *flows);
    // Loads the flows of a cached window on first use.
    const std::vector<RawFlow> &flows(int64_t trackId);
    size_t memoryBytes() const;

private:
    std::unique_ptr<SliceReader> m_reader;
    std::unordered_map<int64_t, Window> m_windows;
    std::unordered_map<int64_t, int64_t> m_reach;  // how far before lo each window's query began
};

} // namespace stepscope

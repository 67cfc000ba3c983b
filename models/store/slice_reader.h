#pragma once
// SliceReader answers the range questions asked of the slice table, each through the
// slice(track_id, start_ns) index: the slices of a track that start in a span (the timeline's exact
// windows, range sums), the flows that touch them, the children that start in a span (self time),
// and every slice in (track, start) order (the level-of-detail build). Values come as stored: a
// session may come from anyone, so callers clamp before a value sizes anything. Each statement is
// prepared on first use and kept for the reader's life, so a reader held across calls
// (TimelineSliceCache, the window loader's worker, one range sum) prepares it once. One thread at a
// time. Called by models/timeline.

#include "models/store/session_connection.h"
#include "models/store/session_store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace stepscope {

// One slice row; times relative to its run's time base.
struct StoredSlice {
    int64_t id = 0, trackId = 0;
    int64_t startNs = 0, durNs = 0;
    int64_t nameId = 0, depth = 0;
};

// One flow with where its ends lie: the end of its source slice, the start of its target.
struct StoredFlow {
    int64_t fromSliceId = 0, toSliceId = 0;
    int64_t fromTrackId = 0, toTrackId = 0;
    int64_t fromEndNs = 0, toStartNs = 0;
    int64_t fromDepth = 0, toDepth = 0;
};

// A slice that has a parent: its parent's id and its own span.
struct StoredChild {
    int64_t parentId = 0, startNs = 0, durNs = 0;
};

class SliceReader {
public:
    explicit SliceReader(const SessionConnection &connection);
    explicit SliceReader(const SessionStore &store) : SliceReader(store.connection()) {}
    ~SliceReader();
    SliceReader(const SliceReader &) = delete;
    SliceReader &operator=(const SliceReader &) = delete;

    // The slices of `trackId` with from <= start < to, by start.
    void forEachStartingIn(int64_t trackId, int64_t from, int64_t to, const std::function<void(const StoredSlice &)> &visit);
    // The flows from or to those slices, in no order; a flow may come twice.
    std::vector<StoredFlow> flowsTouching(int64_t trackId, int64_t from, int64_t to);
    // The flows from or to one slice, at most `limitPerSide` each way.
    std::vector<StoredFlow> flowsOf(int64_t sliceId, int limitPerSide);
    // The slices of `trackId` with a parent and from <= start <= to (closed: a child may start
    // where its parent ends). `visit` returns false to stop.
    void forEachChildStartingIn(int64_t trackId, int64_t from, int64_t to, const std::function<bool(const StoredChild &)> &visit);
    // The direct children of one slice of `trackId` that start in [from, to].
    std::vector<StoredChild> childrenOf(int64_t trackId, int64_t sliceId, int64_t from, int64_t to);
    // Every slice of the session, by (track, start).
    void forEachByTrack(const std::function<void(const StoredSlice &)> &visit);

private:
    struct Statements;
    const SessionConnection &m_conn;
    std::unique_ptr<Statements> m_st;
};

} // namespace stepscope

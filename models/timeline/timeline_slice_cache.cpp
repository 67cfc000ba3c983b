#include "models/timeline/timeline_slice_cache.h"

#include <algorithm>
#include <limits>

namespace stepscope {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / 4;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
} // namespace

void TimelineSliceCache::setDatabase(sqlite3 *db) {
    m_db = db;
    clear();
}

const TimelineSliceCache::Window *TimelineSliceCache::cached(int64_t trackId, int64_t t0, int64_t t1) const {
    auto it = m_windows.find(trackId);
    if (it == m_windows.end()) return nullptr;
    const Window &w = it->second;
    return (w.whole || (w.lo <= t0 && t1 <= w.hi)) ? &w : nullptr;
}

int64_t TimelineSliceCache::Span::queryFrom() const { return whole ? kMin : lo - reach; }
int64_t TimelineSliceCache::Span::queryTo() const { return whole ? kMax : hi; }

TimelineSliceCache::Span TimelineSliceCache::span(const TrackLod *lod, int64_t lo, int64_t hi) {
    Span s;
    s.whole = !lod || !lod->summarised();
    s.lo = s.whole ? kMin : lo;
    s.hi = s.whole ? kMax : hi;
    // A slice shorter than a finest bucket that covers lo starts after lo - width; longer ones
    // reach past their bucket and so are in the summary's `wide` lists.
    s.reach = s.whole ? 0 : lodWidth(lod->finestLevel);
    return s;
}

std::vector<RawSlice> TimelineSliceCache::querySlices(sqlite3 *db, int64_t trackId, int64_t from, int64_t to) {
    std::vector<RawSlice> out;
    SqliteStatement st(db, "SELECT start_ns, dur_ns, id, name_id, depth FROM slice "
                           "WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 ORDER BY start_ns");
    st.bind(1, trackId);
    st.bind(2, from);
    st.bind(3, to);
    while (st.step()) {
        // Stored values are clamped as TimelineLodWriter clamps them: a depth never sizes an array
        // beyond kMaxTimelineDepth, a start plus a duration never overflows.
        const ClampedSpan span = clampSliceTimes(st.columnInt(0), st.columnInt(1));
        out.push_back({span.start, span.dur, st.columnInt(2), int32_t(st.columnInt(3)), clampDepth(st.columnInt(4))});
    }
    return out;
}

std::vector<RawFlow> TimelineSliceCache::queryFlows(sqlite3 *db, int64_t trackId, int64_t from, int64_t to) {
    // The queried span only: covering slices that began earlier bring their own flows when their
    // window is read, and would widen this to everything since they began.
    std::vector<RawFlow> flows;
    for (const char *join : {"f.from_slice_id = s.id", "f.to_slice_id = s.id"}) {
        SqliteStatement st(db, std::string(
            "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, a.depth, b.track_id, b.start_ns, b.depth "
            "FROM slice s CROSS JOIN flow f ON ") + join +
            " JOIN slice a ON a.id = f.from_slice_id JOIN slice b ON b.id = f.to_slice_id "
            "WHERE s.track_id = ?1 AND s.start_ns >= ?2 AND s.start_ns < ?3");
        st.bind(1, trackId);
        st.bind(2, from);
        st.bind(3, to);
        while (st.step())
            flows.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(5),
                             std::clamp(st.columnInt(3), -kLodTimeLimit, kLodTimeLimit),
                             std::clamp(st.columnInt(6), -kLodTimeLimit, kLodTimeLimit), clampDepth(st.columnInt(4)),
                             clampDepth(st.columnInt(7))});
    }
    std::sort(flows.begin(), flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId != b.fromId ? a.fromId < b.fromId : a.toId < b.toId;
    });
    flows.erase(std::unique(flows.begin(), flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId == b.fromId && a.toId == b.toId; }), flows.end());
    return flows;
}

const TimelineSliceCache::Window &TimelineSliceCache::load(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi) {
    const Span s = span(lod, lo, hi);
    return install(trackId, lod, s, querySlices(m_db, trackId, s.queryFrom(), s.queryTo()), nullptr);
}

const TimelineSliceCache::Window &TimelineSliceCache::install(int64_t trackId, const TrackLod *lod, const Span &span,
                                                              std::vector<RawSlice> slices, const std::vector<RawFlow> *flows) {
    Window w;
    w.whole = span.whole;
    w.lo = span.lo;
    w.hi = span.hi;
    w.slices = std::move(slices);
    if (!w.whole && lod) {
        const auto &finest = lod->levels.front();
        std::vector<RawSlice> covering;
        for (const auto &list : lod->wide) {
            // Last wide cell whose long slice starts before the queried span.
            auto it = std::lower_bound(list.begin(), list.end(), span.queryFrom(),
                                       [&](uint32_t i, int64_t t) { return finest[i].longStart < t; });
            if (it == list.begin()) continue;
            const LodCell &c = finest[*std::prev(it)];
            if (c.longStart + c.longDur > w.lo) covering.push_back({c.longStart, c.longDur, -1, c.longName, c.depth});
        }
        w.slices.insert(w.slices.begin(), covering.begin(), covering.end());
        std::stable_sort(w.slices.begin(), w.slices.end(), [](const RawSlice &a, const RawSlice &b) { return a.start < b.start; });
    }
    if (flows) {
        w.flows = *flows;
        w.flowsLoaded = true;
    }
    m_reach[trackId] = span.reach;
    Window &slot = m_windows[trackId];
    slot = std::move(w);
    return slot;
}

const std::vector<RawFlow> &TimelineSliceCache::flows(int64_t trackId) {
    static const std::vector<RawFlow> none;
    auto it = m_windows.find(trackId);
    if (it == m_windows.end()) return none;
    Window &w = it->second;
    if (w.flowsLoaded) return w.flows;
    w.flowsLoaded = true;
    const int64_t lo = w.whole ? kMin : w.lo - m_reach.at(trackId);
    const int64_t hi = w.whole ? kMax : w.hi;
    w.flows = queryFlows(m_db, trackId, lo, hi);
    return w.flows;
}

size_t TimelineSliceCache::memoryBytes() const {
    size_t n = 0;
    for (const auto &[id, w] : m_windows) n += w.slices.capacity() * sizeof(RawSlice) + w.flows.capacity() * sizeof(RawFlow);
    return n;
}

} // namespace stepscope

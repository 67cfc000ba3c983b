#include "models/timeline/timeline_slice_store.h"

#include <algorithm>
#include <limits>

namespace stepscope {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / 4;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
} // namespace

void TimelineSliceStore::setDatabase(sqlite3 *db) {
    m_db = db;
    clear();
}

const TimelineSliceStore::Window *TimelineSliceStore::cached(int64_t trackId, int64_t t0, int64_t t1) const {
    auto it = m_windows.find(trackId);
    if (it == m_windows.end()) return nullptr;
    const Window &w = it->second;
    return (w.whole || (w.lo <= t0 && t1 <= w.hi)) ? &w : nullptr;
}

const TimelineSliceStore::Window &TimelineSliceStore::load(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi) {
    Window w;
    w.whole = !lod || !lod->summarised();
    w.lo = w.whole ? kMin : lo;
    w.hi = w.whole ? kMax : hi;
    // A slice shorter than a finest bucket that covers w.lo starts after w.lo - width; longer ones
    // reach past their bucket and so are in the summary's `wide` lists.
    const int64_t reach = w.whole ? 0 : lodWidth(lod->finestLevel);
    SqliteStatement st(m_db, "SELECT start_ns, dur_ns, id, name_id, depth FROM slice "
                             "WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 ORDER BY start_ns");
    st.bind(1, trackId);
    st.bind(2, w.lo - reach);
    st.bind(3, w.hi);
    while (st.step())
        w.slices.push_back({st.columnInt(0), std::max<int64_t>(0, st.columnInt(1)), st.columnInt(2),
                            int32_t(st.columnInt(3)), uint32_t(std::max<int64_t>(0, st.columnInt(4)))});
    if (!w.whole) {
        const auto &finest = lod->levels.front();
        std::vector<RawSlice> covering;
        for (const auto &list : lod->wide) {
            // Last wide cell whose long slice starts before the queried span.
            auto it = std::lower_bound(list.begin(), list.end(), w.lo - reach,
                                       [&](uint32_t i, int64_t t) { return finest[i].longStart < t; });
            if (it == list.begin()) continue;
            const LodCell &c = finest[*std::prev(it)];
            if (c.longStart + c.longDur > w.lo) covering.push_back({c.longStart, c.longDur, -1, c.longName, c.depth});
        }
        w.slices.insert(w.slices.begin(), covering.begin(), covering.end());
        std::stable_sort(w.slices.begin(), w.slices.end(), [](const RawSlice &a, const RawSlice &b) { return a.start < b.start; });
    }
    m_reach[trackId] = reach;
    Window &slot = m_windows[trackId];
    slot = std::move(w);
    return slot;
}

const std::vector<RawFlow> &TimelineSliceStore::flows(int64_t trackId) {
    static const std::vector<RawFlow> none;
    auto it = m_windows.find(trackId);
    if (it == m_windows.end()) return none;
    Window &w = it->second;
    if (w.flowsLoaded) return w.flows;
    w.flowsLoaded = true;
    // The queried span only: covering slices that began earlier bring their own flows when their
    // window is read, and would widen this to everything since they began.
    const int64_t lo = w.whole ? kMin : w.lo - m_reach.at(trackId);
    const int64_t hi = w.whole ? kMax : w.hi;
    for (const char *join : {"f.from_slice_id = s.id", "f.to_slice_id = s.id"}) {
        SqliteStatement st(m_db, std::string(
            "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, a.depth, b.track_id, b.start_ns, b.depth "
            "FROM slice s CROSS JOIN flow f ON ") + join +
            " JOIN slice a ON a.id = f.from_slice_id JOIN slice b ON b.id = f.to_slice_id "
            "WHERE s.track_id = ?1 AND s.start_ns >= ?2 AND s.start_ns < ?3");
        st.bind(1, trackId);
        st.bind(2, lo);
        st.bind(3, hi);
        while (st.step())
            w.flows.push_back({st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(5), st.columnInt(3),
                               st.columnInt(6), uint32_t(st.columnInt(4)), uint32_t(st.columnInt(7))});
    }
    std::sort(w.flows.begin(), w.flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId != b.fromId ? a.fromId < b.fromId : a.toId < b.toId;
    });
    w.flows.erase(std::unique(w.flows.begin(), w.flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId == b.fromId && a.toId == b.toId; }), w.flows.end());
    return w.flows;
}

size_t TimelineSliceStore::memoryBytes() const {
    size_t n = 0;
    for (const auto &[id, w] : m_windows) n += w.slices.capacity() * sizeof(RawSlice) + w.flows.capacity() * sizeof(RawFlow);
    return n;
}

} // namespace stepscope

#include "models/timeline/timeline_slice_cache.h"

#include <algorithm>
#include <limits>

namespace stepscope {

namespace {
constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / 4;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
} // namespace

RawFlow clampedFlow(const StoredFlow &f) {
    return {f.fromSliceId, f.toSliceId, f.fromTrackId, f.toTrackId, std::clamp(f.fromEndNs, -kLodTimeLimit, kLodTimeLimit),
            std::clamp(f.toStartNs, -kLodTimeLimit, kLodTimeLimit), clampDepth(f.fromDepth), clampDepth(f.toDepth)};
}

void TimelineSliceCache::setStore(const SessionStore *store) {
    clear();
    m_reader = store ? std::make_unique<SliceReader>(*store) : nullptr;
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

std::vector<RawSlice> TimelineSliceCache::querySlices(SliceReader &reader, int64_t trackId, int64_t from, int64_t to) {
    std::vector<RawSlice> out;
    reader.forEachStartingIn(trackId, from, to, [&out](const StoredSlice &s) {
        // Stored values are clamped as TimelineLodWriter clamps them: a depth never sizes an array
        // beyond kMaxTimelineDepth, a start plus a duration never overflows.
        const ClampedSpan span = clampSliceTimes(s.startNs, s.durNs);
        out.push_back({span.start, span.dur, s.id, int32_t(s.nameId), clampDepth(s.depth)});
    });
    return out;
}

std::vector<RawFlow> TimelineSliceCache::queryFlows(SliceReader &reader, int64_t trackId, int64_t from, int64_t to) {
    // The queried span only: covering slices that began earlier bring their own flows when their
    // window is read, and would widen this to everything since they began.
    std::vector<RawFlow> flows;
    for (const StoredFlow &f : reader.flowsTouching(trackId, from, to)) flows.push_back(clampedFlow(f));
    std::sort(flows.begin(), flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId != b.fromId ? a.fromId < b.fromId : a.toId < b.toId;
    });
    flows.erase(std::unique(flows.begin(), flows.end(), [](const RawFlow &a, const RawFlow &b) {
        return a.fromId == b.fromId && a.toId == b.toId; }), flows.end());
    return flows;
}

const TimelineSliceCache::Window &TimelineSliceCache::load(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi) {
    const Span s = span(lod, lo, hi);
    return install(trackId, lod, s, m_reader ? querySlices(*m_reader, trackId, s.queryFrom(), s.queryTo()) : std::vector<RawSlice>{},
                   nullptr);
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
    if (m_reader) w.flows = queryFlows(*m_reader, trackId, lo, hi);
    return w.flows;
}

size_t TimelineSliceCache::memoryBytes() const {
    size_t n = 0;
    for (const auto &[id, w] : m_windows) n += w.slices.capacity() * sizeof(RawSlice) + w.flows.capacity() * sizeof(RawFlow);
    return n;
}

} // namespace stepscope

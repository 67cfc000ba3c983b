#include "models/analysis/engine/critical_path.h"

#include "models/analysis/engine/type_refinement.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace stepscope {

namespace {

// Point ranks at one instant: GPU work ends first (so it can release a host call ending then), host
// boundaries next, GPU work starts last (so a launch ending then can precede it).
enum : int8_t { kGpuEnd = 0, kHost = 1, kGpuStart = 2 };

struct Point {
    int64_t t;
    int8_t rank;
};

struct Edge {
    int32_t from, to;
    int64_t w;       // 0: a dependency, or time that is waiting / untraced
    int32_t slice;   // -1 for dependencies
    int32_t track;
    int8_t type;
};

// What a host call does to its thread: 0 works, 1 waits for the device (sync, blocking copy or memset).
class WaitCalls {
public:
    explicit WaitCalls(const TraceData &trace) : m_trace(trace) {
        for (const TraceSlice &s : trace.slices)
            if (s.gpu && s.correlation >= 0) {
                auto [it, fresh] = m_copyEnd.emplace(s.correlation, s.end);
                if (!fresh) it->second = std::max(it->second, s.end);
            }
    }
    bool waits(const TraceSlice &s) {
        auto [it, fresh] = m_kind.emplace(s.nameId, 0);
        if (fresh) {
            const std::string_view n = m_trace.text(s.nameId);
            it->second = TypeRefinement::isSyncApiCall(n) || TypeRefinement::isBlockingMemset(n) ||
                                 TypeRefinement::isBlockingCopyCall(n) ? 1
                         : (n.starts_with("cudaMemcpy") || n.starts_with("cuMemcpy") || n.starts_with("hipMemcpy")) ? 2
                                                                                                                      : 0;
        }
        if (it->second != 2) return it->second == 1;
        // An async copy call that returns only once its copy has ended waited for it (pageable memory).
        const auto c = s.correlation >= 0 ? m_copyEnd.find(s.correlation) : m_copyEnd.end();
        return c != m_copyEnd.end() && c->second <= s.end && c->second >= s.start;
    }

private:
    const TraceData &m_trace;
    std::unordered_map<int64_t, int64_t> m_copyEnd;  // correlation -> its GPU work's end
    std::unordered_map<int32_t, int> m_kind;
};

class StepGraph {
public:
    StepGraph(const TraceData &trace, const std::vector<int8_t> &types, int remainder, WaitCalls &waits,
              const std::unordered_map<int64_t, int32_t> &launchByCorrelation)
        : m_trace(trace), m_types(types), m_remainder(remainder), m_waits(waits), m_launches(launchByCorrelation) {}

    StepCriticalPath build(int64_t ws, int64_t we, size_t nTypes);

private:
    struct HostChain {
        int32_t track;
        int32_t firstPoint;
        std::vector<int64_t> times;  // boundary times
    };
    struct Open {
        int32_t slice;
        int64_t end;
        int8_t type;  // the highest-priority type open here (-1: none)
    };
    int32_t addPoint(int64_t t, int8_t rank) {
        m_points.push_back({t, rank});
        return int32_t(m_points.size() - 1);
    }
    void addHostTrack(int32_t ti, int64_t ws, int64_t we);
    void addGpuTrack(int32_t ti, int64_t ws, int64_t we);
    int32_t hostPointAt(int32_t track, int64_t t) const;

    const TraceData &m_trace;
    const std::vector<int8_t> &m_types;
    int m_remainder;
    WaitCalls &m_waits;
    const std::unordered_map<int64_t, int32_t> &m_launches;
    std::vector<Point> m_points;
    std::vector<Edge> m_edges;
    std::unordered_map<int32_t, HostChain> m_hosts;                 // by track index
    struct GpuWork {
        int32_t slice, start;   // end point = start + 1
        int64_t readyAt;        // when its stream and its launch let it start (-1: not known yet)
    };
    std::vector<GpuWork> m_gpuWork;
    std::vector<std::pair<int32_t, int32_t>> m_waitEnds;            // (wait slice, host track)
    std::unordered_map<int32_t, int64_t> m_pathNsByName;            // name id -> ns on the path

public:
    const std::unordered_map<int32_t, int64_t> &pathNsByName() const { return m_pathNsByName; }
};

void StepGraph::addHostTrack(int32_t ti, int64_t ws, int64_t we) {
    const TraceTrack &t = m_trace.tracks[size_t(ti)];
    const auto begin = m_trace.slices.begin() + ptrdiff_t(t.first), end = begin + ptrdiff_t(t.count);
    const auto f = std::lower_bound(begin, end, ws, [](const TraceSlice &s, int64_t v) { return s.start < v; });
    std::vector<int32_t> items;  // slices open at ws (outermost first), then those starting inside
    if (f != begin)
        for (int32_t p = int32_t(f - m_trace.slices.begin()) - 1; p >= 0; p = m_trace.slices[size_t(p)].parent)
            if (m_trace.slices[size_t(p)].end > ws) items.push_back(p);
    std::reverse(items.begin(), items.end());
    for (auto it = f; it != end && it->start < we; ++it) items.push_back(int32_t(it - m_trace.slices.begin()));
    if (items.empty()) return;

    HostChain chain{ti, int32_t(m_points.size()), {}};
    std::vector<Open> stack;
    int64_t cur = ws;
    chain.times.push_back(ws);
    auto segment = [&](int64_t e) {
        const Open *top = stack.empty() ? nullptr : &stack.back();
        const bool waiting = top && m_waits.waits(m_trace.slices[size_t(top->slice)]);
        const int8_t type = top ? (top->type >= 0 ? top->type : int8_t(m_remainder)) : int8_t(-1);
        // Time inside a step marker with nothing typed open is the thread's own untraced work (Python
        // between ops), charged to the remainder as the breakdown charges it; waiting time and time
        // outside every slice carry no length.
        const bool counts = top && !waiting;
        chain.times.push_back(e);
        m_edges.push_back({int32_t(chain.firstPoint + chain.times.size() - 2), int32_t(chain.firstPoint + chain.times.size() - 1),
                           counts ? e - cur : 0, top ? top->slice : -1, ti, type});
        cur = e;
    };
    auto advance = [&](int64_t until) {
        while (!stack.empty() && stack.back().end <= cur) stack.pop_back();
        while (cur < until) {
            const int64_t e = stack.empty() ? until : std::min(until, stack.back().end);
            segment(e);
            while (!stack.empty() && stack.back().end <= cur) stack.pop_back();
        }
    };
    for (const int32_t i : items) {
        const TraceSlice &s = m_trace.slices[size_t(i)];
        const int64_t a = std::max(s.start, ws), b = std::min(s.end, we);
        if (b <= a) continue;
        advance(a);
        int8_t type = stack.empty() ? int8_t(-1) : stack.back().type;
        const int8_t own = m_types[size_t(i)];
        if (own >= 0 && (type < 0 || own < type)) type = own;  // lower index: higher priority
        stack.push_back({i, b, type});
        if (m_waits.waits(s)) m_waitEnds.emplace_back(i, ti);
    }
    advance(we);
    for (const int64_t time : chain.times) addPoint(time, kHost);
    m_hosts.emplace(ti, std::move(chain));
}

void StepGraph::addGpuTrack(int32_t ti, int64_t ws, int64_t we) {
    const TraceTrack &t = m_trace.tracks[size_t(ti)];
    const auto begin = m_trace.slices.begin() + ptrdiff_t(t.first), end = begin + ptrdiff_t(t.count);
    // GPU work does not overlap on a stream (what does, nested under an annotation or not, is skipped);
    // one that starts before the window and runs into it is found by looking back one.
    auto f = std::lower_bound(begin, end, ws, [](const TraceSlice &s, int64_t v) { return s.start < v; });
    if (f != begin && std::prev(f)->end > ws) --f;
    int32_t prevEnd = -1;
    int64_t prevEndTime = 0;
    for (auto it = f; it != end && it->start < we; ++it) {
        const int32_t i = int32_t(it - m_trace.slices.begin());
        if (m_types[size_t(i)] < 0) continue;  // GPU-side annotations; the work nested in them counts
        const int64_t a = std::max(it->start, ws), b = std::min(it->end, we);
        if (b <= a || a < prevEndTime) continue;
        const int32_t s = addPoint(a, kGpuStart), e = addPoint(b, kGpuEnd);
        m_edges.push_back({s, e, b - a, i, ti, m_types[size_t(i)]});
        if (prevEnd >= 0) m_edges.push_back({prevEnd, s, 0, -1, ti, -1});
        m_gpuWork.push_back({i, s, prevEnd >= 0 ? prevEndTime : -1});
        prevEnd = e;
        prevEndTime = b;
    }
}

int32_t StepGraph::hostPointAt(int32_t track, int64_t t) const {
    const auto it = m_hosts.find(track);
    if (it == m_hosts.end()) return -1;
    const std::vector<int64_t> &times = it->second.times;
    const auto p = std::upper_bound(times.begin(), times.end(), t);  // the last boundary at or before t
    if (p == times.begin()) return -1;
    return it->second.firstPoint + int32_t(p - times.begin() - 1);
}

StepCriticalPath StepGraph::build(int64_t ws, int64_t we, size_t nTypes) {
    StepCriticalPath out;
    out.perTypeNs.assign(nTypes, 0);
    for (size_t ti = 0; ti < m_trace.tracks.size(); ++ti)
        if (m_trace.tracks[ti].gpu) addGpuTrack(int32_t(ti), ws, we);
        else addHostTrack(int32_t(ti), ws, we);

    // Launch -> kernel; learn each host thread's device from what it launches.
    std::unordered_map<int32_t, int> deviceOfHost;
    for (GpuWork &w : m_gpuWork) {
        const TraceSlice &k = m_trace.slices[size_t(w.slice)];
        if (k.correlation < 0) continue;
        const auto l = m_launches.find(k.correlation);
        if (l == m_launches.end()) continue;
        const TraceSlice &call = m_trace.slices[size_t(l->second)];
        const int64_t at = call.end <= k.start ? call.end : call.start;
        if (at > k.start || at < ws) continue;
        const int32_t from = hostPointAt(call.track, at);
        if (from < 0) continue;
        m_edges.push_back({from, w.start, 0, -1, call.track, -1});
        w.readyAt = std::max(w.readyAt, at);
        deviceOfHost.emplace(call.track, m_trace.deviceOf(k));
    }
    // GPU work -> the end of a call that waited for it: the work that ended last inside the call.
    std::unordered_map<int, std::vector<std::pair<int64_t, int32_t>>> endsByDevice;  // (end time, end point)
    for (const GpuWork &w : m_gpuWork)
        endsByDevice[m_trace.deviceOf(m_trace.slices[size_t(w.slice)])].emplace_back(m_points[size_t(w.start + 1)].t, w.start + 1);
    for (auto &[d, v] : endsByDevice) std::sort(v.begin(), v.end());
    // A stream that waits for another (cudaStreamWaitEvent: the optimizer after the all-reduce): work
    // that starts well after its launch and its stream's previous work allowed waited for the work of
    // another stream of its device that ended last before it, when that ended later than both.
    constexpr int64_t kUnexplainedNs = 5'000;
    for (const GpuWork &w : m_gpuWork) {
        const TraceSlice &k = m_trace.slices[size_t(w.slice)];
        const int64_t start = m_points[size_t(w.start)].t;
        if (w.readyAt < 0 || start - w.readyAt <= kUnexplainedNs) continue;
        const auto &v = endsByDevice[m_trace.deviceOf(k)];
        auto p = std::upper_bound(v.begin(), v.end(), std::pair<int64_t, int32_t>{start, INT32_MAX});
        while (p != v.begin()) {
            --p;
            if (p->first <= w.readyAt) break;
            if (p->second == w.start + 1) continue;
            m_edges.push_back({p->second, w.start, 0, -1, k.track, -1});
            break;
        }
    }
    for (const auto &[slice, track] : m_waitEnds) {
        const TraceSlice &w = m_trace.slices[size_t(slice)];
        const int64_t a = std::max(w.start, ws), b = std::min(w.end, we);
        const int32_t to = hostPointAt(track, b);
        if (to < 0) continue;
        const auto dev = deviceOfHost.find(track);
        std::pair<int64_t, int32_t> best{-1, -1};
        for (const auto &[d, v] : endsByDevice) {
            if (dev != deviceOfHost.end() && d != dev->second) continue;
            auto p = std::upper_bound(v.begin(), v.end(), std::pair<int64_t, int32_t>{b, INT32_MAX});
            if (p != v.begin() && std::prev(p)->first >= a) best = std::max(best, *std::prev(p));
        }
        if (best.second >= 0) m_edges.push_back({best.second, to, 0, -1, track, -1});
    }

    // Longest path over the points in time order (every edge runs forward in this order).
    const size_t n = m_points.size();
    if (n == 0) return out;
    std::vector<int32_t> order(n), pos(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
        const Point &a = m_points[size_t(x)], &b = m_points[size_t(y)];
        return a.t != b.t ? a.t < b.t : (a.rank != b.rank ? a.rank < b.rank : x < y);
    });
    for (size_t k = 0; k < n; ++k) pos[size_t(order[k])] = int32_t(k);
    std::vector<int32_t> firstOut(n + 1, 0);
    for (const Edge &e : m_edges) ++firstOut[size_t(e.from) + 1];
    std::partial_sum(firstOut.begin(), firstOut.end(), firstOut.begin());
    std::vector<int32_t> byFrom(m_edges.size());
    {
        std::vector<int32_t> fill(firstOut.begin(), firstOut.end() - 1);
        for (size_t e = 0; e < m_edges.size(); ++e) byFrom[size_t(fill[size_t(m_edges[e].from)]++)] = int32_t(e);
    }
    std::vector<int64_t> dist(n, 0);
    std::vector<int32_t> via(n, -1);  // the edge that reached each point on its longest path
    int32_t best = order.front();
    for (const int32_t p : order) {
        if (dist[size_t(p)] > dist[size_t(best)]) best = p;
        for (int32_t k = firstOut[size_t(p)]; k < firstOut[size_t(p) + 1]; ++k) {
            const Edge &e = m_edges[size_t(byFrom[size_t(k)])];
            if (pos[size_t(e.to)] <= pos[size_t(p)]) continue;  // never backwards (clock skew)
            if (dist[size_t(p)] + e.w > dist[size_t(e.to)] || (via[size_t(e.to)] < 0 && dist[size_t(p)] + e.w == dist[size_t(e.to)])) {
                dist[size_t(e.to)] = dist[size_t(p)] + e.w;
                via[size_t(e.to)] = byFrom[size_t(k)];
            }
        }
    }
    out.lengthNs = dist[size_t(best)];
    for (int32_t p = best; via[size_t(p)] >= 0; p = m_edges[size_t(via[size_t(p)])].from) {
        const Edge &e = m_edges[size_t(via[size_t(p)])];
        if (e.w <= 0) continue;
        if (e.type >= 0 && size_t(e.type) < nTypes) out.perTypeNs[size_t(e.type)] += e.w;
        const int64_t a = m_points[size_t(e.from)].t, b = m_points[size_t(e.to)].t;
        // Untraced time under a step marker is named by no event.
        if (e.slice >= 0) m_pathNsByName[m_types[size_t(e.slice)] >= 0 ? m_trace.slices[size_t(e.slice)].nameId : -1] += e.w;
        const int64_t trackId = m_trace.tracks[size_t(e.track)].id;
        if (!out.segments.empty() && out.segments.back().trackId == trackId && out.segments.back().type == e.type &&
            out.segments.back().start == b)
            out.segments.back().start = a;
        else
            out.segments.push_back({a, b, trackId, e.type});
    }
    std::reverse(out.segments.begin(), out.segments.end());
    return out;
}

} // namespace

CriticalPath CriticalPathAnalyzer::analyze(const TraceData &trace, const std::vector<int8_t> &types, const Preset &preset,
                                           const StepTimeline &steps) {
    CriticalPath cp;
    const size_t nTypes = preset.types.size();
    cp.totalPerTypeNs.assign(nTypes, 0);
    WaitCalls waits(trace);
    std::unordered_map<int64_t, int32_t> launches;  // correlation -> host launch call
    for (size_t i = 0; i < trace.slices.size(); ++i)
        if (!trace.slices[i].gpu && trace.slices[i].correlation >= 0) launches.emplace(trace.slices[i].correlation, int32_t(i));
    std::unordered_map<int32_t, int64_t> byName;
    for (const AnalysisStep &s : steps.steps) {
        StepGraph graph(trace, types, preset.remainder, waits, launches);
        StepCriticalPath p = graph.build(s.start, s.end, nTypes);
        cp.totalLengthNs += p.lengthNs;
        for (size_t t = 0; t < nTypes; ++t) cp.totalPerTypeNs[t] += p.perTypeNs[t];
        for (const auto &[name, ns] : graph.pathNsByName()) byName[name] += ns;
        cp.steps.push_back(std::move(p));
    }
    std::vector<std::pair<int32_t, int64_t>> top(byName.begin(), byName.end());
    std::sort(top.begin(), top.end(), [](const auto &a, const auto &b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    for (size_t k = 0; k < top.size() && k < 10; ++k)
        cp.topNames.push_back({top[k].first >= 0 ? std::string(trace.text(top[k].first)) : std::string("(untraced host time)"), top[k].second});
    return cp;
}

} // namespace stepscope

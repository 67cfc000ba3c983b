#include "models/analysis/engine/gpu_gap_analyzer.h"

#include "models/analysis/engine/category.h"

#include <algorithm>
#include <numeric>

namespace stepscope {

std::string_view gapCauseName(GapCause c) {
    switch (c) {
    case GapCause::HostWait: return "host_wait";
    case GapCause::KernelWait: return "kernel_wait";
    case GapCause::Other: return "other";
    }
    return "other";
}

namespace {

struct RawGap {
    int64_t start, end;
    int32_t nextSlice;
    int64_t prevEnd;  // where the gap began before clipping to the steps
};

GapCause classify(const TraceData &trace, const TraceSlice &next, int64_t prevEnd) {
    if (next.correlation >= 0) {
        const auto it = trace.launchStartByCorrelation.find(next.correlation);
        if (it != trace.launchStartByCorrelation.end() && it->second > prevEnd) return GapCause::HostWait;
    }
    return next.start - prevEnd < GpuGapAnalyzer::kConsecutiveKernelDelayNs ? GapCause::KernelWait : GapCause::Other;
}

// Gaps between the ops `order` (sorted by start) inside [lo, hi).
std::vector<RawGap> findGaps(const TraceData &trace, const std::vector<int32_t> &order, int64_t lo, int64_t hi) {
    std::vector<RawGap> out;
    int64_t maxEnd = INT64_MIN;
    for (int32_t i : order) {
        const TraceSlice &s = trace.slices[size_t(i)];
        if (maxEnd != INT64_MIN && s.start > maxEnd) {
            const int64_t a = std::max(maxEnd, lo), b = std::min(s.start, hi);
            if (a < b) out.push_back({a, b, i, maxEnd});
        }
        maxEnd = std::max(maxEnd, s.end);
    }
    return out;
}

// The gaps' parts inside the steps; gaps and windows are both sorted, so one linear walk.
std::vector<RawGap> clip(const std::vector<RawGap> &gaps, const IntervalList &windows) {
    std::vector<RawGap> out;
    size_t w = 0;
    for (const RawGap &g : gaps) {
        while (w < windows.size() && windows[w].end <= g.start) ++w;
        for (size_t k = w; k < windows.size() && windows[k].start < g.end; ++k) {
            const int64_t a = std::max(g.start, windows[k].start), b = std::min(g.end, windows[k].end);
            if (a < b) out.push_back({a, b, g.nextSlice, g.prevEnd});
        }
    }
    return out;
}

void add(GapTotals &t, GapCause c, int64_t ns) {
    ++t.count;
    t.totalNs += ns;
    t.byCauseNs[size_t(c)] += ns;
}

} // namespace

GapAnalysis GpuGapAnalyzer::analyze(const TraceData &trace, const std::vector<int8_t> &types, const Breakdown &stepscope,
                                    const StepTimeline &steps, size_t topCount) {
    GapAnalysis out;
    if (steps.steps.empty()) return out;
    const int64_t lo = steps.steps.front().start, hi = steps.steps.back().end;
    const IntervalList windows = steps.windows();
    std::map<int, std::vector<int32_t>> byDevice;
    for (size_t ti = 0; ti < trace.tracks.size(); ++ti) {
        const TraceTrack &t = trace.tracks[ti];
        if (!t.gpu) continue;
        std::vector<int32_t> ops;
        for (size_t i = t.first; i < t.first + t.count; ++i)
            if (types[i] >= 0) ops.push_back(int32_t(i));
        if (ops.empty()) continue;
        StreamGaps sg{t.name, t.device, {}};
        for (const RawGap &g : clip(findGaps(trace, ops, lo, hi), windows))
            add(sg.totals, classify(trace, trace.slices[size_t(g.nextSlice)], g.prevEnd), g.end - g.start);
        out.streams.push_back(std::move(sg));
        auto &dev = byDevice[t.device];
        dev.insert(dev.end(), ops.begin(), ops.end());
    }

    std::vector<GpuGap> gaps;
    for (auto &[device, ops] : byDevice) {
        std::sort(ops.begin(), ops.end(), [&](int32_t a, int32_t b) { return trace.slices[size_t(a)].start < trace.slices[size_t(b)].start; });
        for (const RawGap &g : clip(findGaps(trace, ops, lo, hi), windows)) {
            const TraceSlice &next = trace.slices[size_t(g.nextSlice)];
            GpuGap gap;
            gap.start = g.start;
            gap.dur = g.end - g.start;
            gap.device = device;
            gap.stream = trace.tracks[size_t(next.track)].name;
            gap.cause = classify(trace, next, g.prevEnd);
            add(out.device, gap.cause, gap.dur);
            gaps.push_back(std::move(gap));
        }
    }
    std::sort(gaps.begin(), gaps.end(), [](const GpuGap &a, const GpuGap &b) { return a.start < b.start; });

    // What the host was doing: the stepscope category charged during each gap (device categories are
    // absent there for a single device; with several devices another GPU's work can show).
    std::vector<int64_t> bestNs(gaps.size(), 0);
    std::vector<int> bestCat(gaps.size(), -1);
    const int otherType = stepscope.typeIndex("other");
    for (size_t t = 0; t < stepscope.types.size(); ++t) {
        const IntervalList &ex = stepscope.exclusive[t];
        size_t j = 0;
        for (size_t g = 0; g < gaps.size(); ++g) {
            const int64_t a = gaps[g].start, b = a + gaps[g].dur;
            while (j < ex.size() && ex[j].end <= a) ++j;
            int64_t ns = 0;
            for (size_t k = j; k < ex.size() && ex[k].start < b; ++k) ns += std::min(ex[k].end, b) - std::max(ex[k].start, a);
            if (ns > bestNs[g]) {
                bestNs[g] = ns;
                bestCat[g] = int(t);
            }
        }
    }
    for (size_t g = 0; g < gaps.size(); ++g) {
        gaps[g].hostActivity = bestCat[g] < 0 || bestCat[g] == otherType ? "nothing_traced" : stepscope.types[size_t(bestCat[g])];
        out.byHostActivityNs[gaps[g].hostActivity] += gaps[g].dur;
    }

    // The longest gaps, with the host events overlapping them.
    std::vector<size_t> idx(gaps.size());
    std::iota(idx.begin(), idx.end(), size_t(0));
    const size_t n = std::min(topCount, idx.size());
    std::partial_sort(idx.begin(), idx.begin() + ptrdiff_t(n), idx.end(),
                      [&](size_t a, size_t b) { return gaps[a].dur != gaps[b].dur ? gaps[a].dur > gaps[b].dur : gaps[a].start < gaps[b].start; });
    for (size_t k = 0; k < n; ++k) {
        GpuGap gap = gaps[idx[k]];
        const int64_t a = gap.start, b = a + gap.dur;
        std::vector<std::pair<int64_t, int32_t>> hits;
        for (const TraceTrack &t : trace.tracks) {
            if (t.gpu || t.count == 0) continue;
            const auto first = trace.slices.begin() + ptrdiff_t(t.first), last = first + ptrdiff_t(t.count);
            auto addHit = [&](size_t i) {
                const TraceSlice &s = trace.slices[i];
                if (s.end > a && s.start < b && types[i] >= 0) hits.emplace_back(std::min(s.end, b) - std::max(s.start, a), s.nameId);
            };
            // Slices that start before the gap and reach into it enclose the last slice starting before it.
            const auto in = std::lower_bound(first, last, a, [](const TraceSlice &s, int64_t v) { return s.start < v; });
            if (in != first)
                for (int32_t p = int32_t(in - trace.slices.begin()) - 1; p >= 0; p = trace.slices[size_t(p)].parent) addHit(size_t(p));
            for (auto it = in; it != last && it->start < b; ++it) addHit(size_t(it - trace.slices.begin()));
        }
        std::sort(hits.begin(), hits.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
        for (const auto &[ns, name] : hits) {
            const std::string text(trace.text(name));
            if (std::find(gap.overlapping.begin(), gap.overlapping.end(), text) == gap.overlapping.end())
                gap.overlapping.push_back(text);
            if (gap.overlapping.size() >= 3) break;
        }
        // A host blocked in a synchronize call while the GPU idles waits on something else (an event, a copy).
        if (gap.hostActivity == "kernel_launch")
            for (const std::string &name : gap.overlapping)
                if (name.find("Synchronize") != std::string::npos) gap.hostActivity = "synchronization";
        out.top.push_back(std::move(gap));
    }
    return out;
}

} // namespace stepscope

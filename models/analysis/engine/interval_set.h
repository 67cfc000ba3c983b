#pragma once
// Interval arithmetic on sorted, disjoint half-open [start, end) ns intervals, the building block of
// the priority sweep (StepBreakdownAnalyzer) and the gap analysis (GpuGapAnalyzer). Header-only.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stepscope {

struct Interval {
    int64_t start = 0, end = 0;
    int64_t length() const { return end - start; }
};
using IntervalList = std::vector<Interval>;  // sorted by start, disjoint, non-empty intervals

namespace intervals {

// Sorts and merges overlapping or touching intervals in place; drops empty ones.
inline void normalize(IntervalList &v) {
    std::erase_if(v, [](const Interval &i) { return i.end <= i.start; });
    std::sort(v.begin(), v.end(), [](const Interval &a, const Interval &b) { return a.start < b.start; });
    size_t out = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (out > 0 && v[i].start <= v[out - 1].end) v[out - 1].end = std::max(v[out - 1].end, v[i].end);
        else v[out++] = v[i];
    }
    v.resize(out);
}

// a minus b.
inline IntervalList subtract(const IntervalList &a, const IntervalList &b) {
    IntervalList out;
    out.reserve(a.size());
    size_t j = 0;
    for (Interval cur : a) {
        while (j < b.size() && b[j].end <= cur.start) ++j;
        size_t k = j;
        while (k < b.size() && b[k].start < cur.end) {
            if (b[k].start > cur.start) out.push_back({cur.start, b[k].start});
            cur.start = std::max(cur.start, b[k].end);
            if (cur.start >= cur.end) break;
            ++k;
        }
        if (cur.start < cur.end) out.push_back(cur);
    }
    return out;
}

// a union b.
inline IntervalList unite(const IntervalList &a, const IntervalList &b) {
    IntervalList out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const Interval next = (j >= b.size() || (i < a.size() && a[i].start <= b[j].start)) ? a[i++] : b[j++];
        if (!out.empty() && next.start <= out.back().end) out.back().end = std::max(out.back().end, next.end);
        else out.push_back(next);
    }
    return out;
}

// a intersect b.
inline IntervalList intersect(const IntervalList &a, const IntervalList &b) {
    IntervalList out;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const int64_t lo = std::max(a[i].start, b[j].start), hi = std::min(a[i].end, b[j].end);
        if (lo < hi) out.push_back({lo, hi});
        (a[i].end < b[j].end) ? ++i : ++j;
    }
    return out;
}

inline int64_t total(const IntervalList &v) {
    int64_t t = 0;
    for (const Interval &i : v) t += i.length();
    return t;
}

// For each window (sorted, disjoint), the length of v inside it.
inline std::vector<int64_t> overlapPerWindow(const IntervalList &v, const IntervalList &windows) {
    std::vector<int64_t> out(windows.size(), 0);
    size_t i = 0;
    for (size_t w = 0; w < windows.size(); ++w) {
        while (i < v.size() && v[i].end <= windows[w].start) ++i;
        for (size_t k = i; k < v.size() && v[k].start < windows[w].end; ++k)
            out[w] += std::min(v[k].end, windows[w].end) - std::max(v[k].start, windows[w].start);
    }
    return out;
}

} // namespace intervals
} // namespace stepscope

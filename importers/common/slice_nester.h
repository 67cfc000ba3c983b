#pragma once
// SliceNester computes depth and parent for the slices of one track, whatever order they arrived
// in: it sorts by (start, longer first, arrival) and nests with a stack. A slice that starts inside
// another but ends after it (overlap without nesting) is never dropped: it goes to an overflow row
// band below the regular rows (depth offset past the deepest regular row, nested among the other
// overflow slices), and is counted. Each overflow band is one more pass over what still overlaps, so
// the bands are capped (kMaxOverflowBands): slices overlapping like a staircase (each starting inside
// the previous one and ending after it) would otherwise need one band, and one pass, per slice. What
// is left after the last band goes onto one final band where a slice that does not fit inside the
// open one closes it (so the overlap shows on that row) — linear, whatever the shape; counted as
// clipped. After nest(), enclosing()/nextStarting() answer the flow-binding questions ("which slice
// is open at t", "which slice starts next").
// A track of millions of slices is sorted in pieces (sorted runs, then merges, a merge skipped when
// its runs are already in order, as traces mostly are) and nested in steps, calling a poll function
// between pieces so the caller can report progress and honour cancel while one huge track nests.
// Used by TraceEventWriter per track and by the XPlane importer.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace stepscope {

class SliceNester {
public:
    struct Span {
        int64_t start = 0;
        int64_t dur = 0;  // >= 0
    };
    static constexpr int32_t kNone = -1;
    // Called between pieces of work; returning false stops nest() (cancel).
    using Poll = std::function<bool()>;
    static constexpr size_t kSortRun = size_t(1) << 15;   // slices sorted at once
    static constexpr size_t kPollItems = size_t(1) << 16; // slices merged or nested between polls
    static constexpr int kMaxOverflowBands = 16;          // then one final, clipping band

    // Nests `spans` (indices below refer to positions in it). Reuses its buffers between calls.
    // Calls `poll` (if set) at least every kSortRun sorted / kPollItems merged or nested slices;
    // returns false as soon as it returns false, the results then being unspecified.
    bool nest(std::span<const Span> spans, const Poll &poll = {});

    size_t size() const { return m_depth.size(); }
    // Input indices sorted by (start asc, dur desc, index asc): parents come before children.
    const std::vector<uint32_t> &order() const { return m_order; }
    int32_t depth(size_t i) const { return m_depth[i]; }
    int32_t parent(size_t i) const { return m_parent[i]; }  // input index or kNone
    bool overflowed(size_t i) const { return m_overflow[i] != 0; }
    int64_t overflowCount() const { return m_overflowCount; }
    int32_t maxDepth() const { return m_maxDepth; }
    int32_t firstOverflowDepth() const { return m_firstOverflowDepth; }  // kNone when none overflowed
    // Overflowed slices that did not fit in kMaxOverflowBands bands and share the final band, where
    // they may overlap their neighbours.
    int64_t clippedCount() const { return m_clippedCount; }
    // Slices looked at by the nesting passes (a measure of the work done: at most
    // (kMaxOverflowBands + 2) per slice).
    int64_t nestingWork() const { return m_work; }

    // Deepest regularly nested span open at t (start <= t < end; a zero-length span at its start
    // counts), or kNone.
    int32_t enclosing(int64_t t) const;
    // First span (in sorted order) starting at or after t, or kNone.
    int32_t nextStarting(int64_t t) const;

private:
    bool contains(uint32_t i, int64_t t) const;
    bool less(uint32_t a, uint32_t b) const {
        if (m_spans[a].start != m_spans[b].start)
            return m_spans[a].start < m_spans[b].start;
        if (m_spans[a].dur != m_spans[b].dur)
            return m_spans[a].dur > m_spans[b].dur;
        return a < b;
    }
    // Sorts m_order by less(), in runs then merges, polling between them. False once cancelled.
    bool sortOrder(const Poll &poll);
    bool merge(size_t lo, size_t mid, size_t hi, const Poll &poll);
    // Nests `items` (sorted) at depth offset `base`; the ones that overlap without nesting go to
    // `rest`. False once cancelled.
    bool nestRound(const std::vector<uint32_t> &items, int32_t base, std::vector<uint32_t> &rest, const Poll &poll);
    // The final band: a slice that does not fit inside the open one closes it instead of waiting for
    // another band. False once cancelled.
    bool clipRound(const std::vector<uint32_t> &items, int32_t base, const Poll &poll);

    std::span<const Span> m_spans;
    std::vector<uint32_t> m_order;
    std::vector<int64_t> m_sortedStart;  // start of m_order[k]
    std::vector<int32_t> m_depth;
    std::vector<int32_t> m_parent;
    std::vector<uint8_t> m_overflow;
    std::vector<uint32_t> m_stack;
    std::vector<uint32_t> m_mergeBuffer;
    std::vector<int32_t> m_regularUpTo;  // per sorted position: the last regular one at or before it
    int64_t m_overflowCount = 0;
    int64_t m_clippedCount = 0;
    int64_t m_work = 0;
    int32_t m_maxDepth = -1;
    int32_t m_firstOverflowDepth = kNone;
};

} // namespace stepscope

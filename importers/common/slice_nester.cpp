#include "importers/common/slice_nester.h"

#include <algorithm>
#include <cstddef>

namespace stepscope {

namespace {

bool keepGoing(const SliceNester::Poll &poll) { return !poll || poll(); }

} // namespace

bool SliceNester::nest(std::span<const Span> spans, const Poll &poll) {
    m_spans = spans;
    const size_t n = spans.size();
    m_order.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_order[i] = uint32_t(i);
    if (!sortOrder(poll))
        return false;
    m_sortedStart.resize(n);
    for (size_t k = 0; k < n; ++k)
        m_sortedStart[k] = spans[m_order[k]].start;
    m_depth.assign(n, 0);
    m_parent.assign(n, kNone);
    m_overflow.assign(n, 0);
    m_overflowCount = 0;
    m_clippedCount = 0;
    m_work = 0;
    m_maxDepth = -1;
    m_firstOverflowDepth = kNone;
    m_regularUpTo.clear();

    std::vector<uint32_t> rest;
    if (!nestRound(m_order, 0, rest, poll))
        return false;
    // Each further round places what still overlaps one band lower; every round nests at least
    // its first item. After kMaxOverflowBands rounds the rest goes onto one clipping band.
    std::vector<uint32_t> items;
    for (int band = 1; !rest.empty(); ++band) {
        for (uint32_t i : rest)
            if (!m_overflow[i]) {
                m_overflow[i] = 1;
                ++m_overflowCount;
            }
        const int32_t base = m_maxDepth + 1;
        if (m_firstOverflowDepth == kNone)
            m_firstOverflowDepth = base;
        items.swap(rest);
        rest.clear();
        if (band > kMaxOverflowBands) {
            m_clippedCount = int64_t(items.size());
            if (!clipRound(items, base, poll))
                return false;
            break;
        }
        if (!nestRound(items, base, rest, poll))
            return false;
    }
    if (m_overflowCount > 0) {
        // enclosing() skips overflowed slices; with most of a track overflowed, walking back over
        // them on every lookup would be quadratic.
        m_regularUpTo.resize(n);
        int32_t last = kNone;
        for (size_t k = 0; k < n; ++k) {
            if (!m_overflow[m_order[k]])
                last = int32_t(k);
            m_regularUpTo[k] = last;
        }
    }
    return true;
}

bool SliceNester::sortOrder(const Poll &poll) {
    const size_t n = m_order.size();
    const auto byStart = [this](uint32_t a, uint32_t b) { return less(a, b); };
    for (size_t lo = 0; lo < n; lo += kSortRun) {
        const auto first = m_order.begin() + std::ptrdiff_t(lo);
        const auto last = m_order.begin() + std::ptrdiff_t(std::min(n, lo + kSortRun));
        if (!std::is_sorted(first, last, byStart))
            std::sort(first, last, byStart);
        if (n > kSortRun && !keepGoing(poll))
            return false;
    }
    for (size_t width = kSortRun; width < n; width *= 2)
        for (size_t lo = 0; lo + width < n; lo += 2 * width) {
            const size_t mid = lo + width;
            if (!less(m_order[mid], m_order[mid - 1]))
                continue;  // the two runs are already in order
            if (!merge(lo, mid, std::min(n, lo + 2 * width), poll))
                return false;
        }
    return true;
}

bool SliceNester::merge(size_t lo, size_t mid, size_t hi, const Poll &poll) {
    // The left run moves to the buffer; the merge then fills m_order[lo, hi) from the front,
    // never overtaking the unread part of the right run.
    m_mergeBuffer.assign(m_order.begin() + std::ptrdiff_t(lo), m_order.begin() + std::ptrdiff_t(mid));
    size_t a = 0, b = mid, out = lo;
    const size_t aEnd = m_mergeBuffer.size();
    size_t nextPoll = out + kPollItems;
    while (a < aEnd && b < hi) {
        m_order[out++] = less(m_order[b], m_mergeBuffer[a]) ? m_order[b++] : m_mergeBuffer[a++];
        if (out >= nextPoll) {
            nextPoll = out + kPollItems;
            if (!keepGoing(poll))
                return false;
        }
    }
    std::copy(m_mergeBuffer.begin() + std::ptrdiff_t(a), m_mergeBuffer.end(), m_order.begin() + std::ptrdiff_t(out));
    return keepGoing(poll);
}

bool SliceNester::nestRound(const std::vector<uint32_t> &items, int32_t base, std::vector<uint32_t> &rest,
                            const Poll &poll) {
    m_stack.clear();
    size_t nextPoll = kPollItems;
    for (size_t k = 0; k < items.size(); ++k) {
        if (k == nextPoll) {
            nextPoll += kPollItems;
            if (!keepGoing(poll))
                return false;
        }
        const uint32_t i = items[k];
        const int64_t start = m_spans[i].start;
        const int64_t end = start + m_spans[i].dur;
        ++m_work;
        while (!m_stack.empty()) {
            const Span &top = m_spans[m_stack.back()];
            if (top.start + top.dur <= start)
                m_stack.pop_back();
            else
                break;
        }
        if (m_stack.empty()) {
            m_depth[i] = base;
            m_parent[i] = kNone;
        } else {
            const uint32_t top = m_stack.back();
            if (end > m_spans[top].start + m_spans[top].dur) {
                rest.push_back(i);  // starts inside `top`, ends after it
                continue;
            }
            m_depth[i] = m_depth[top] + 1;
            m_parent[i] = int32_t(top);
        }
        m_maxDepth = std::max(m_maxDepth, m_depth[i]);
        m_stack.push_back(i);
    }
    return true;
}

bool SliceNester::clipRound(const std::vector<uint32_t> &items, int32_t base, const Poll &poll) {
    m_stack.clear();
    size_t nextPoll = kPollItems;
    for (size_t k = 0; k < items.size(); ++k) {
        if (k == nextPoll) {
            nextPoll += kPollItems;
            if (!keepGoing(poll))
                return false;
        }
        const uint32_t i = items[k];
        const int64_t end = m_spans[i].start + m_spans[i].dur;
        ++m_work;
        // Close every open slice that ends before this one does: what stays open contains it.
        while (!m_stack.empty() && m_spans[m_stack.back()].start + m_spans[m_stack.back()].dur < end)
            m_stack.pop_back();
        m_depth[i] = m_stack.empty() ? base : m_depth[m_stack.back()] + 1;
        m_parent[i] = m_stack.empty() ? kNone : int32_t(m_stack.back());
        m_maxDepth = std::max(m_maxDepth, m_depth[i]);
        m_stack.push_back(i);
    }
    return true;
}

bool SliceNester::contains(uint32_t i, int64_t t) const {
    const Span &s = m_spans[i];
    return s.start <= t && (t < s.start + s.dur || (s.dur == 0 && t == s.start));
}

int32_t SliceNester::enclosing(int64_t t) const {
    // Last span starting at or before t; the enclosing one is it or one of its ancestors.
    auto it = std::upper_bound(m_sortedStart.begin(), m_sortedStart.end(), t);
    std::ptrdiff_t k = (it - m_sortedStart.begin()) - 1;
    if (k >= 0 && !m_regularUpTo.empty())
        k = m_regularUpTo[size_t(k)];
    if (k < 0)
        return kNone;
    int32_t c = int32_t(m_order[size_t(k)]);
    while (c != kNone && !contains(uint32_t(c), t))
        c = m_parent[size_t(c)];
    // Prefer a real slice over a zero-length marker at the same instant.
    if (c != kNone && m_spans[size_t(c)].dur == 0 && m_parent[size_t(c)] != kNone &&
        contains(uint32_t(m_parent[size_t(c)]), t))
        c = m_parent[size_t(c)];
    return c;
}

int32_t SliceNester::nextStarting(int64_t t) const {
    auto it = std::lower_bound(m_sortedStart.begin(), m_sortedStart.end(), t);
    if (it == m_sortedStart.end())
        return kNone;
    return int32_t(m_order[size_t(it - m_sortedStart.begin())]);
}

} // namespace stepscope

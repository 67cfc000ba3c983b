#include "importers/common/slice_nester.h"

#include <algorithm>
#include <cstddef>

namespace stepscope {

void SliceNester::nest(std::span<const Span> spans) {
    m_spans = spans;
    const size_t n = spans.size();
    m_order.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_order[i] = uint32_t(i);
    std::sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
        if (spans[a].start != spans[b].start)
            return spans[a].start < spans[b].start;
        if (spans[a].dur != spans[b].dur)
            return spans[a].dur > spans[b].dur;
        return a < b;
    });
    m_sortedStart.resize(n);
    for (size_t k = 0; k < n; ++k)
        m_sortedStart[k] = spans[m_order[k]].start;
    m_depth.assign(n, 0);
    m_parent.assign(n, kNone);
    m_overflow.assign(n, 0);
    m_overflowCount = 0;
    m_maxDepth = -1;
    m_firstOverflowDepth = kNone;

    std::vector<uint32_t> rest = nestRound(m_order, 0);
    // Each further round places what still overlaps one band lower; every round nests at least
    // its first item, so this ends.
    while (!rest.empty()) {
        for (uint32_t i : rest)
            if (!m_overflow[i]) {
                m_overflow[i] = 1;
                ++m_overflowCount;
            }
        const int32_t base = m_maxDepth + 1;
        if (m_firstOverflowDepth == kNone)
            m_firstOverflowDepth = base;
        rest = nestRound(rest, base);
    }
}

std::vector<uint32_t> SliceNester::nestRound(const std::vector<uint32_t> &items, int32_t base) {
    std::vector<uint32_t> rest;
    m_stack.clear();
    for (uint32_t i : items) {
        const int64_t start = m_spans[i].start;
        const int64_t end = start + m_spans[i].dur;
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
    return rest;
}

bool SliceNester::contains(uint32_t i, int64_t t) const {
    const Span &s = m_spans[i];
    return s.start <= t && (t < s.start + s.dur || (s.dur == 0 && t == s.start));
}

int32_t SliceNester::enclosing(int64_t t) const {
    // Last span starting at or before t; the enclosing one is it or one of its ancestors.
    auto it = std::upper_bound(m_sortedStart.begin(), m_sortedStart.end(), t);
    std::ptrdiff_t k = (it - m_sortedStart.begin()) - 1;
    while (k >= 0 && m_overflow[m_order[size_t(k)]])
        --k;
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

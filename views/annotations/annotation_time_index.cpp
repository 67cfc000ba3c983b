#include "views/annotations/annotation_time_index.h"

#include <algorithm>

namespace stepscope {

void AnnotationTimeIndex::rebuild(const std::vector<Annotation> &notes) {
    m_notes = notes.data();
    m_starts.resize(notes.size());
    m_maxEnd.resize(notes.size());
    int64_t reach = INT64_MIN;
    for (size_t i = 0; i < notes.size(); ++i) {
        m_starts[i] = notes[i].startNs;
        reach = std::max(reach, std::max(notes[i].startNs, notes[i].endNs));
        m_maxEnd[i] = reach;
    }
}

std::pair<size_t, size_t> AnnotationTimeIndex::candidates(int64_t lo, int64_t hi) const {
    const size_t first = size_t(std::lower_bound(m_maxEnd.begin(), m_maxEnd.end(), lo) - m_maxEnd.begin());
    const size_t last = size_t(std::upper_bound(m_starts.begin(), m_starts.end(), hi) - m_starts.begin());
    return {first, std::max(first, last)};
}

std::vector<const Annotation *> AnnotationTimeIndex::overlapping(int64_t lo, int64_t hi) const {
    std::vector<const Annotation *> out;
    const auto [first, last] = candidates(lo, hi);
    for (size_t i = first; i < last; ++i)
        if (m_notes[i].overlaps(lo, hi)) out.push_back(&m_notes[i]);
    return out;
}

size_t AnnotationTimeIndex::countOverlapping(int64_t lo, int64_t hi) const {
    size_t n = 0;
    const auto [first, last] = candidates(lo, hi);
    for (size_t i = first; i < last; ++i) n += m_notes[i].overlaps(lo, hi);
    return n;
}

} // namespace stepscope

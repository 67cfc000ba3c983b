#pragma once
// AnnotationTimeIndex answers "which notes overlap [lo, hi]" without copying the notes or testing
// each one: the notes in start order (as AnnotationModel keeps them) with, per position, the
// latest end among the notes up to it, so a query skips by binary search every note that ends
// before lo and stops at the first that starts after hi. Owned by TimelineAnnotationOverlay, which
// rebuilds it when the AnnotationModel changes (pointers refer into the model's list).

#include "models/store/annotation_store.h"

#include <cstdint>
#include <vector>

namespace stepscope {

class AnnotationTimeIndex {
public:
    // `notes` sorted by start; must outlive the index's use (until the next rebuild).
    void rebuild(const std::vector<Annotation> &notes);
    void clear() {
        m_notes = nullptr;
        m_starts.clear();
        m_maxEnd.clear();
    }
    // The notes overlapping [lo, hi] (Annotation::overlaps), in start order.
    std::vector<const Annotation *> overlapping(int64_t lo, int64_t hi) const;
    size_t countOverlapping(int64_t lo, int64_t hi) const;
    size_t size() const { return m_starts.size(); }

private:
    // Positions [first, last) that may overlap: before first every note ends before lo.
    std::pair<size_t, size_t> candidates(int64_t lo, int64_t hi) const;

    const Annotation *m_notes = nullptr;
    std::vector<int64_t> m_starts;
    std::vector<int64_t> m_maxEnd;  // prefix maximum of max(start, end)
};

} // namespace stepscope

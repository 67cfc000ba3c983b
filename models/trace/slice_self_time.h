#pragma once
// One rule for a slice's self time, used by the op table (analysis), the selection table and the
// details pane alike: its duration minus the time its direct children cover inside it, never below
// zero. A slice's children are the slices whose stored parent_id is it — the nesting the import
// decided (SliceNester): a slice that overlaps another without nesting sits on an overflow row and
// is nobody's child. Children lie inside their parent; the clip only guards sessions that say
// otherwise.

#include <algorithm>
#include <cstdint>

namespace stepscope::slice_self_time {

// The part of child [childStart, childEnd) inside parent [parentStart, parentEnd).
inline int64_t childCover(int64_t parentStart, int64_t parentEnd, int64_t childStart, int64_t childEnd) {
    return std::max<int64_t>(0, std::min(childEnd, parentEnd) - std::max(childStart, parentStart));
}

inline int64_t selfNs(int64_t durNs, int64_t childCoverNs) { return std::max<int64_t>(0, durNs - childCoverNs); }

} // namespace stepscope::slice_self_time

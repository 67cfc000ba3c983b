#pragma once
// The one self-time loop, used by the op table (analysis), the input pipeline's stages, the
// selection's Range tab and the details pane alike: a slice's self time is its duration minus the
// time its direct children cover inside it, never below zero. A slice's children are the slices
// whose stored parent_id is it — the nesting the import decided (SliceNester): a slice that overlaps
// another without nesting sits on an overflow row and is nobody's child. Children lie inside their
// parent; the clip only guards sessions that say otherwise. Callers differ only in where parents
// and children come from (memory, one SQL query per slice or per track), which they pass in.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope {

// Self time of parents 0 … count-1: spanOf(i) gives parent i's [start, end) as a pair;
// forEachChild(add) reports each direct child once as add(parentIndex, childStart, childEnd) (a
// parent index of count or more is no parent here and is skipped).
template <class SpanOf, class ForEachChild>
std::vector<int64_t> sliceSelfTimes(size_t count, SpanOf &&spanOf, ForEachChild &&forEachChild) {
    std::vector<int64_t> ns(count, 0);  // the children's cover first, then the self time
    forEachChild([&](size_t parent, int64_t childStart, int64_t childEnd) {
        if (parent >= count) return;
        const auto [start, end] = spanOf(parent);
        ns[parent] += std::max<int64_t>(0, std::min<int64_t>(childEnd, end) - std::max<int64_t>(childStart, start));
    });
    for (size_t i = 0; i < count; ++i) {
        const auto [start, end] = spanOf(i);
        ns[i] = std::max<int64_t>(0, (end - start) - ns[i]);
    }
    return ns;
}

} // namespace stepscope

#include "models/timeline/capture_clusters.h"

#include <algorithm>

namespace stepscope {

std::vector<NsRange> captureClusters(std::vector<NsRange> runs) {
    std::erase_if(runs, [](const NsRange &r) { return !r.valid(); });
    std::sort(runs.begin(), runs.end(), [](const NsRange &a, const NsRange &b) { return a.start < b.start; });
    // First the runs that overlap or touch: stretches of recorded time.
    std::vector<NsRange> stretches;
    for (const NsRange &r : runs) {
        if (!stretches.empty() && r.start <= stretches.back().end) stretches.back().end = std::max(stretches.back().end, r.end);
        else stretches.push_back(r);
    }
    // Then a gap splits only when it is long on its own and against what it separates.
    constexpr int64_t kMinGapNs = 10'000'000'000;
    std::vector<NsRange> captures;
    for (const NsRange &s : stretches) {
        if (captures.empty()) {
            captures.push_back(s);
            continue;
        }
        const int64_t gap = s.start - captures.back().end;
        if (gap > kMinGapNs && gap > captures.back().duration() + s.duration()) captures.push_back(s);
        else captures.back().end = std::max(captures.back().end, s.end);
    }
    if (captures.size() < 2) return {};
    return captures;
}

} // namespace stepscope

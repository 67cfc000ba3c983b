#include "models/timeline/timeline_lod_check.h"

#include <algorithm>

namespace stepscope {

namespace {
std::string n(int64_t v) { return std::to_string(v); }
bool inTime(int64_t t) { return t >= -kLodTimeLimit && t <= kLodTimeLimit; }
} // namespace

std::string checkTrackRow(int64_t slices, int64_t depthCount, int64_t startNs, int64_t endNs, int64_t finestLevel) {
    if (slices < 0) return "slices " + n(slices);
    if (depthCount < 0 || depthCount > kMaxTimelineDepth || (slices > 0 && depthCount == 0))
        return "depth_count " + n(depthCount) + " for " + n(slices) + " slices";
    if (finestLevel < -1 || finestLevel > kLodMaxLevel) return "finest_level " + n(finestLevel);
    if (finestLevel >= 0 && slices < kLodMinSlices) return "a summary of only " + n(slices) + " slices";
    if (!inTime(startNs) || !inTime(endNs) || startNs > endNs) return "time span " + n(startNs) + ".." + n(endNs);
    return {};
}

std::string checkLodLevel(const TrackLod &t, int level, const std::vector<LodCell> &cells) {
    const int shift = lodShift(level);
    int64_t total = 0;
    uint32_t deepest = 0;
    int64_t reach = INT64_MIN, bound = INT64_MIN;  // furthest longest-slice end; furthest end any slice can have
    for (size_t k = 0; k < cells.size(); ++k) {
        const LodCell &c = cells[k];
        const std::string at = "level " + n(level) + " cell " + n(int64_t(k)) + ": ";
        if (c.count == 0) return at + "count 0";
        if (c.depth >= uint32_t(t.depthCount)) return at + "depth " + n(c.depth) + " beyond depth_count " + n(t.depthCount);
        if (!inTime(c.longStart) || c.longDur < 0 || c.longDur > kLodTimeLimit - c.longStart || c.busyNs < c.longDur)
            return at + "slice " + n(c.longStart) + "+" + n(c.longDur) + ", busy " + n(c.busyNs);
        if (c.bucket != (c.longStart >> shift)) return at + "bucket " + n(c.bucket) + " does not hold its slice";
        if (k > 0) {
            const LodCell &p = cells[k - 1];
            if (c.bucket < p.bucket || (c.bucket == p.bucket && c.depth <= p.depth)) return at + "out of order";
        }
        total += c.count;  // at most 2^32 per cell; cells are bounded by the blob's size
        if (total > t.slices) return at + "counts add up past the track's " + n(t.slices) + " slices";
        deepest = std::max(deepest, c.depth);
        reach = std::max(reach, c.longStart + c.longDur);
        // Every slice of the cell starts in the bucket and is no longer than its longest.
        bound = std::max(bound, ((c.bucket + 1) << shift) + c.longDur);
    }
    const std::string at = "level " + n(level) + ": ";
    if (total != t.slices) return at + "counts add up to " + n(total) + ", not " + n(t.slices);
    if (int64_t(deepest) + 1 != t.depthCount) return at + "deepest cell " + n(deepest) + " for depth_count " + n(t.depthCount);
    if (t.endNs < reach || t.endNs > bound) return at + "end_ns " + n(t.endNs) + " outside what the cells allow";
    if ((t.startNs >> shift) != cells.front().bucket) return at + "start_ns " + n(t.startNs) + " not in the first bucket";
    return {};
}

std::string checkTrackLod(const TrackLod &t, int64_t realCount, int64_t realMaxDepth) {
    if (t.finestLevel >= 0) {
        if (t.levels.empty()) return "a summary without levels";
        return {};  // each level was checked as it was read
    }
    if (!t.levels.empty()) return "levels for a track read without summary";
    if (realCount != t.slices) return "slices " + n(t.slices) + " where the track holds " + n(realCount);
    const int64_t lanes = realCount > 0 ? int64_t(clampDepth(realMaxDepth)) + 1 : 0;
    if (t.depthCount != lanes) return "depth_count " + n(t.depthCount) + " where the slices need " + n(lanes);
    return {};
}

} // namespace stepscope

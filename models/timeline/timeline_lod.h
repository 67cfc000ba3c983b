#pragma once
// The level-of-detail cell layout shared by TimelineLodWriter (builds it once per session content)
// and TimelineLodCache (reads it at open). The blob format is documented in
// resources/schema/003_timeline_lod.sql; changing this struct means a new migration.

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace stepscope {

// Summary of the slices of one track, at one depth, starting in one time bucket.
struct LodCell {
    int64_t bucket = 0;     // relative start_ns >> lodShift(level)
    int64_t longStart = 0;  // the longest slice starting in the bucket (relative ns) ...
    int64_t longDur = 0;
    int64_t busyNs = 0;     // summed durations of all slices starting in the bucket
    uint32_t count = 0;     // slices starting in the bucket
    int32_t longName = 0;   // ... and its name id: the cell's dominant name
    uint32_t depth = 0;
    uint32_t reserved = 0;
};
static_assert(sizeof(LodCell) == 48 && std::is_trivially_copyable_v<LodCell>);

inline constexpr int kLodMaxLevel = 26;  // 2^62 ns buckets: one bucket holds any trace
// Tracks with fewer slices than this are read directly, without a summary.
inline constexpr int64_t kLodMinSlices = 4096;
// The finest level kept has on average at least this many slices per cell.
inline constexpr int64_t kLodMinSlicesPerCell = 8;

constexpr int lodShift(int level) { return 10 + 2 * level; }       // level 0: 1.024 µs buckets
constexpr int64_t lodWidth(int level) { return int64_t(1) << lodShift(level); }

// Stored depths size per-depth arrays (open cells, pending items, lanes), and a session file may come
// from anyone: a depth from the file is clamped into [0, kMaxTimelineDepth) before it sizes anything,
// so deeper slices share the last lane. Real traces nest far less deep than this.
inline constexpr int kMaxTimelineDepth = 512;
constexpr uint32_t clampDepth(int64_t depth) {
    return uint32_t(std::clamp<int64_t>(depth, 0, kMaxTimelineDepth - 1));
}
// Times (relative to the run's base) are kept within ±kLodTimeLimit (36 years), so a start plus a
// duration, or a bucket's end, never overflows int64 whatever the file holds.
inline constexpr int64_t kLodTimeLimit = int64_t(1) << 60;
struct ClampedSpan {
    int64_t start = 0, dur = 0;
};
constexpr ClampedSpan clampSliceTimes(int64_t start, int64_t dur) {
    const int64_t s = std::clamp(start, -kLodTimeLimit, kLodTimeLimit);
    return {s, std::clamp<int64_t>(dur, 0, kLodTimeLimit - s)};
}

} // namespace stepscope

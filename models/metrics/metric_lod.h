#pragma once
// MetricLod owns one metric series in compact arrays (int64 ns times, float values) and its
// multi-resolution summary: a pyramid of blocks of 16, 256, 4096, ... samples, each holding the
// block's min, max and sum. Any sample range [i, j) is then summarised exactly by reading at most
// 2×16 entries per level, so per-pixel buckets (first/min/max/last, or means) and range statistics cost
// O(log n) whatever the zoom. Built once when MetricSeriesModel loads a session; read by the
// utilization view, its benchmark and the tests. Immutable after construction.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace stepscope {

// Summary of the samples whose time falls in one pixel column (count 0: no sample there).
struct MetricBucket {
    int64_t count = 0;
    float first = 0, min = 0, max = 0, last = 0;
};

// Summary of the samples in a time range; mean is the plain sample mean.
struct MetricStats {
    int64_t count = 0;
    double min = 0, mean = 0, max = 0;
};

class MetricLod {
public:
    static constexpr int64_t kFanout = 16;

    MetricLod() = default;
    // times must be sorted ascending (equal times allowed); values.size() == times.size().
    MetricLod(std::vector<int64_t> times, std::vector<float> values);

    int64_t size() const { return int64_t(m_t.size()); }
    const std::vector<int64_t> &times() const { return m_t; }
    const std::vector<float> &values() const { return m_v; }
    int levels() const { return int(m_levels.size()); }
    size_t memoryBytes() const;

    // First sample index with time >= t.
    int64_t lowerIndex(int64_t t) const;
    // Index of the last sample with time <= t, or nullopt when none.
    std::optional<int64_t> indexAtOrBefore(int64_t t) const;

    // Exact min/mean/max over samples [i, j).
    MetricStats statsOfIndices(int64_t i, int64_t j) const;
    // Exact min/mean/max over samples with t0 <= time < t1.
    MetricStats stats(int64_t t0, int64_t t1) const;
    // `width` buckets splitting [t0, t1) evenly; bucket k holds the samples with
    // t0 + k*(t1-t0)/width <= time < t0 + (k+1)*(t1-t0)/width. Every sample in [t0, t1) lands in
    // exactly one bucket.
    std::vector<MetricBucket> buckets(int64_t t0, int64_t t1, int width) const;
    // The mean of the samples in each of the same `width` buckets, and how many there are (0: no
    // sample, mean 0): what a line of the mean across several series reads per pixel column.
    std::vector<std::pair<double, int64_t>> bucketMeans(int64_t t0, int64_t t1, int width) const;

private:
    struct Block {
        float min, max;
        double sum;
    };
    void build();
    // Calls visit(k, i, j) for each non-empty bucket k of buckets(t0, t1, width), samples [i, j).
    template <class Visit>
    void forEachBucket(int64_t t0, int64_t t1, int width, Visit &&visit) const;
    // Calls visit(level, a, b) for the pieces that make up samples [i, j): level -1 for raw
    // samples [a, b), L >= 0 for blocks [a, b) of m_levels[L].
    template <class Visit>
    void visitPieces(int64_t i, int64_t j, Visit &&visit) const;
    // Min and max of samples [i, j), 0 <= i < j <= size().
    std::pair<float, float> minMaxOfIndices(int64_t i, int64_t j) const;
    // First index in [lo, hi] with time >= t (all of [lo, hi) sorted, hi meaning "none"),
    // searched outwards from `guess`.
    int64_t lowerIndexNear(int64_t t, int64_t lo, int64_t hi, int64_t guess) const;

    std::vector<int64_t> m_t;
    std::vector<float> m_v;
    std::vector<std::vector<Block>> m_levels;  // m_levels[0]: blocks of 16 samples, [1]: of 256, ...
};

} // namespace stepscope

#include "models/metrics/metric_lod.h"

#include <algorithm>
#include <limits>
#include <span>
#include <tuple>

namespace stepscope {

namespace {

struct Acc {
    int64_t count = 0;
    float min = std::numeric_limits<float>::infinity();
    float max = -std::numeric_limits<float>::infinity();
    double sum = 0;
    void addValue(float v) {
        min = std::min(min, v);
        max = std::max(max, v);
        sum += double(v);
    }
};

// Min and max only, for buckets: four independent running pairs, so the loop is not one long chain
// of dependent comparisons (a bucket reads up to ~150 entries across its levels).
struct MinMax {
    float min = std::numeric_limits<float>::infinity();
    float max = -std::numeric_limits<float>::infinity();
    template <class T, class Extremes>
    void add(const T *items, int64_t n, Extremes extremes) {
        float lo[4] = {min, min, min, min}, hi[4] = {max, max, max, max};
        int64_t k = 0;
        for (; k + 4 <= n; k += 4)
            for (int u = 0; u < 4; ++u) {
                const auto [a, b] = extremes(items[k + u]);
                lo[u] = std::min(lo[u], a);
                hi[u] = std::max(hi[u], b);
            }
        for (; k < n; ++k) {
            const auto [a, b] = extremes(items[k]);
            lo[0] = std::min(lo[0], a);
            hi[0] = std::max(hi[0], b);
        }
        min = std::min(std::min(lo[0], lo[1]), std::min(lo[2], lo[3]));
        max = std::max(std::max(hi[0], hi[1]), std::max(hi[2], hi[3]));
    }
};

} // namespace

MetricLod::MetricLod(std::vector<int64_t> times, std::vector<float> values) : m_t(std::move(times)), m_v(std::move(values)) {
    m_v.resize(m_t.size());
    build();
}

void MetricLod::build() {
    // Level 0 summarises raw samples; level L+1 summarises 16 blocks of level L. Only full blocks
    // are stored: a query reads the ragged ends from the level below.
    int64_t n = size() / kFanout;
    if (n == 0) return;
    std::vector<Block> first(size_t(n), Block{0, 0, 0});
    for (int64_t b = 0; b < n; ++b) {
        const float *v = m_v.data() + b * kFanout;
        Block blk{v[0], v[0], 0};
        for (int64_t k = 0; k < kFanout; ++k) {
            blk.min = std::min(blk.min, v[k]);
            blk.max = std::max(blk.max, v[k]);
            blk.sum += double(v[k]);
        }
        first[size_t(b)] = blk;
    }
    m_levels.push_back(std::move(first));
    while ((n = int64_t(m_levels.back().size()) / kFanout) > 0) {
        const std::vector<Block> &below = m_levels.back();
        std::vector<Block> up(size_t(n), Block{0, 0, 0});
        for (int64_t b = 0; b < n; ++b) {
            Block blk = below[size_t(b * kFanout)];
            blk.sum = 0;
            for (int64_t k = 0; k < kFanout; ++k) {
                const Block &c = below[size_t(b * kFanout + k)];
                blk.min = std::min(blk.min, c.min);
                blk.max = std::max(blk.max, c.max);
                blk.sum += c.sum;
            }
            up[size_t(b)] = blk;
        }
        m_levels.push_back(std::move(up));
    }
}

size_t MetricLod::memoryBytes() const {
    size_t bytes = m_t.capacity() * sizeof(int64_t) + m_v.capacity() * sizeof(float);
    for (const auto &l : m_levels) bytes += l.capacity() * sizeof(Block);
    return bytes;
}

int64_t MetricLod::lowerIndex(int64_t t) const {
    return int64_t(std::lower_bound(m_t.begin(), m_t.end(), t) - m_t.begin());
}

std::optional<int64_t> MetricLod::indexAtOrBefore(int64_t t) const {
    const int64_t i = int64_t(std::upper_bound(m_t.begin(), m_t.end(), t) - m_t.begin());
    return i > 0 ? std::optional<int64_t>(i - 1) : std::nullopt;
}

int64_t MetricLod::lowerIndexNear(int64_t t, int64_t lo, int64_t hi, int64_t guess) const {
    // The answer lies in [lo, hi]. Bracket it by doubling steps away from the guess, then bisect.
    guess = std::clamp(guess, lo, hi);
    int64_t a = lo, b = hi;  // answer in [a, b]
    if (guess < hi && m_t[size_t(guess)] < t) {
        a = guess + 1;
        int64_t step = 1;
        while (a + step - 1 < hi && m_t[size_t(a + step - 1)] < t) {
            a += step;
            step *= 2;
        }
        b = std::min(hi, a + step - 1);
    } else {
        b = guess;
        int64_t step = 1;
        while (b - step >= lo && m_t[size_t(b - step)] >= t) {
            b -= step;
            step *= 2;
        }
        a = std::max(lo, b - step + 1);
    }
    return int64_t(std::lower_bound(m_t.begin() + a, m_t.begin() + b, t) - m_t.begin());
}

template <class Visit>
void MetricLod::visitPieces(int64_t lo, int64_t hi, Visit &&visit) const {
    // Raw samples up to the next block boundary and from the last one, then the same with the
    // blocks of each level, until one level's blocks cover the rest.
    const auto roundUp = [](int64_t x) { return (x + kFanout - 1) / kFanout * kFanout; };
    const auto roundDown = [](int64_t x) { return x / kFanout * kFanout; };
    int level = -1;  // -1: raw samples, L >= 0: m_levels[L]
    while (lo < hi) {
        const int64_t loUp = roundUp(lo), hiDown = roundDown(hi);
        const bool top = level + 1 >= int(m_levels.size());
        if (top || loUp >= hiDown) {
            visit(level, lo, hi);
            break;
        }
        visit(level, lo, loUp);
        visit(level, hiDown, hi);
        lo = loUp / kFanout;
        hi = hiDown / kFanout;
        ++level;
    }
}

MetricStats MetricLod::statsOfIndices(int64_t i, int64_t j) const {
    i = std::clamp<int64_t>(i, 0, size());
    j = std::clamp<int64_t>(j, i, size());
    Acc acc;
    acc.count = j - i;
    visitPieces(i, j, [&](int level, int64_t a, int64_t b) {
        if (level < 0) {
            for (int64_t k = a; k < b; ++k) acc.addValue(m_v[size_t(k)]);
            return;
        }
        for (const Block &blk : std::span(m_levels[size_t(level)]).subspan(size_t(a), size_t(b - a))) {
            acc.min = std::min(acc.min, blk.min);
            acc.max = std::max(acc.max, blk.max);
            acc.sum += blk.sum;
        }
    });
    MetricStats s;
    s.count = acc.count;
    if (acc.count > 0) {
        s.min = double(acc.min);
        s.max = double(acc.max);
        s.mean = acc.sum / double(acc.count);
    }
    return s;
}

std::pair<float, float> MetricLod::minMaxOfIndices(int64_t i, int64_t j) const {
    MinMax acc;
    visitPieces(i, j, [&](int level, int64_t a, int64_t b) {
        if (level < 0) acc.add(m_v.data() + a, b - a, [](float v) { return std::pair{v, v}; });
        else acc.add(m_levels[size_t(level)].data() + a, b - a, [](const Block &blk) { return std::pair{blk.min, blk.max}; });
    });
    return {acc.min, acc.max};
}

MetricStats MetricLod::stats(int64_t t0, int64_t t1) const {
    if (t1 <= t0) return {};
    return statsOfIndices(lowerIndex(t0), lowerIndex(t1));
}

template <class Visit>
void MetricLod::forEachBucket(int64_t t0, int64_t t1, int width, Visit &&visit) const {
    if (width <= 0 || t1 <= t0 || m_t.empty()) return;
    // Bucket edges computed in 128-bit-safe steps: span * k can overflow int64 for week-long ranges
    // at many pixels, so use long double for the edge position and round down.
    const long double step = (long double)(t1 - t0) / (long double)width;
    int64_t i = lowerIndex(t0);
    const int64_t end = lowerIndex(t1);
    // Samples usually come evenly spaced: the next edge is guessed one bucket's worth of samples
    // further (the previous bucket's count), then found by galloping from the guess, which touches
    // one or two cache lines instead of a binary search's dozen scattered ones.
    int64_t expected = (end - i) / width;
    for (int k = 0; k < width && i < end; ++k) {
        const int64_t edge = k + 1 == width ? t1 : t0 + int64_t(step * (long double)(k + 1));
        const int64_t j = lowerIndexNear(edge, i, end, i + expected);
        if (j > i) {
            expected = j - i;
            visit(k, i, j);
        }
        i = j;
    }
}

std::vector<MetricBucket> MetricLod::buckets(int64_t t0, int64_t t1, int width) const {
    std::vector<MetricBucket> out(size_t(std::max(width, 0)));
    forEachBucket(t0, t1, width, [&](int k, int64_t i, int64_t j) {
        MetricBucket &bk = out[size_t(k)];
        bk.count = j - i;
        bk.first = m_v[size_t(i)];
        bk.last = m_v[size_t(j - 1)];
        std::tie(bk.min, bk.max) = minMaxOfIndices(i, j);
    });
    return out;
}

std::vector<std::pair<double, int64_t>> MetricLod::bucketMeans(int64_t t0, int64_t t1, int width) const {
    std::vector<std::pair<double, int64_t>> out(size_t(std::max(width, 0)), {0.0, 0});
    forEachBucket(t0, t1, width, [&](int k, int64_t i, int64_t j) { out[size_t(k)] = {statsOfIndices(i, j).mean, j - i}; });
    return out;
}

} // namespace stepscope

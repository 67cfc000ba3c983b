#include "models/metrics/metric_lod.h"

#include <algorithm>
#include <limits>

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

MetricStats MetricLod::statsOfIndices(int64_t i, int64_t j) const {
    i = std::clamp<int64_t>(i, 0, size());
    j = std::clamp<int64_t>(j, i, size());
    Acc acc;
    acc.count = j - i;
    // Raw samples up to the next block boundary and from the last one.
    int64_t lo = i, hi = j;
    auto rawRange = [&](int64_t a, int64_t b) {
        for (int64_t k = a; k < b; ++k) acc.addValue(m_v[size_t(k)]);
    };
    auto blockRange = [&](const std::vector<Block> &level, int64_t a, int64_t b) {
        for (int64_t k = a; k < b; ++k) {
            const Block &blk = level[size_t(k)];
            acc.min = std::min(acc.min, blk.min);
            acc.max = std::max(acc.max, blk.max);
            acc.sum += blk.sum;
        }
    };
    const auto roundUp = [](int64_t x) { return (x + kFanout - 1) / kFanout * kFanout; };
    const auto roundDown = [](int64_t x) { return x / kFanout * kFanout; };
    int level = -1;  // -1: raw samples, L >= 0: m_levels[L]
    while (lo < hi) {
        const int64_t loUp = roundUp(lo), hiDown = roundDown(hi);
        const bool top = level + 1 >= int(m_levels.size());
        if (top || loUp >= hiDown) {
            if (level < 0) rawRange(lo, hi);
            else blockRange(m_levels[size_t(level)], lo, hi);
            break;
        }
        if (level < 0) {
            rawRange(lo, loUp);
            rawRange(hiDown, hi);
        } else {
            blockRange(m_levels[size_t(level)], lo, loUp);
            blockRange(m_levels[size_t(level)], hiDown, hi);
        }
        lo = loUp / kFanout;
        hi = hiDown / kFanout;
        ++level;
    }
    MetricStats s;
    s.count = acc.count;
    if (acc.count > 0) {
        s.min = double(acc.min);
        s.max = double(acc.max);
        s.mean = acc.sum / double(acc.count);
    }
    return s;
}

MetricStats MetricLod::stats(int64_t t0, int64_t t1) const {
    if (t1 <= t0) return {};
    return statsOfIndices(lowerIndex(t0), lowerIndex(t1));
}

std::vector<MetricBucket> MetricLod::buckets(int64_t t0, int64_t t1, int width) const {
    std::vector<MetricBucket> out(size_t(std::max(width, 0)));
    if (width <= 0 || t1 <= t0 || m_t.empty()) return out;
    // Bucket edges computed in 128-bit-safe steps: span * k can overflow int64 for week-long ranges
    // at many pixels, so use long double for the edge position and round down.
    const long double step = (long double)(t1 - t0) / (long double)width;
    int64_t i = lowerIndex(t0);
    const int64_t end = lowerIndex(t1);
    for (int k = 0; k < width && i < end; ++k) {
        const int64_t edge = k + 1 == width ? t1 : t0 + int64_t(step * (long double)(k + 1));
        // Next edge: gallop from i since edges advance monotonically.
        int64_t j;
        if (m_t[size_t(i)] >= edge) {
            j = i;
        } else {
            int64_t probe = 1;
            while (i + probe < end && m_t[size_t(i + probe)] < edge) probe *= 2;
            const auto b = m_t.begin() + i + probe / 2;
            const auto e = m_t.begin() + std::min(end, i + probe);
            j = int64_t(std::lower_bound(b, e, edge) - m_t.begin());
        }
        if (j > i) {
            const MetricStats s = statsOfIndices(i, j);
            MetricBucket &bk = out[size_t(k)];
            bk.count = j - i;
            bk.first = m_v[size_t(i)];
            bk.last = m_v[size_t(j - 1)];
            bk.min = float(s.min);
            bk.max = float(s.max);
        }
        i = j;
    }
    return out;
}

} // namespace stepscope

// MetricLod and MetricSeriesModel: per-pixel buckets (and their means) and range statistics are exact (compared with
// a brute-force scan) for irregular series, duplicate times, evenly spaced samples with gaps, ranges
// and widths of every shape; every sample in the range lands in exactly one bucket; values at an
// instant respect gaps; the loader applies the source's clock offset and derives the busiest core /
// mean of cores.

#include "models/metrics/metric_series_loader.h"
#include "models/metrics/metric_series_model.h"
#include "models/store/session_writer.h"
#include "tests/test_support.h"

#include <QtTest>

#include <random>
#include <tuple>

using namespace stepscope;

namespace {

struct Series {
    std::vector<int64_t> t;
    std::vector<float> v;
};

Series randomSeries(int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    Series s;
    int64_t t = 1000;
    for (int i = 0; i < n; ++i) {
        t += int64_t(rng() % 5);  // irregular, with duplicate times
        s.t.push_back(t);
        s.v.push_back(float(int64_t(rng() % 20001) - 10000) / 8.0f);
    }
    return s;
}

} // namespace

class TstMetricLod : public QObject {
    Q_OBJECT
private slots:
    void bucketsMatchBruteForce() {
        for (int n : {0, 1, 15, 16, 17, 255, 256, 4097, 70000}) {
            const Series s = randomSeries(n, uint64_t(n) + 1);
            const MetricLod lod(s.t, s.v);
            QCOMPARE(lod.size(), int64_t(n));
            std::mt19937_64 rng(99);
            for (int trial = 0; trial < 30; ++trial) {
                const int64_t span = n ? s.t.back() + 10 : 100;
                int64_t a = int64_t(rng() % uint64_t(span)), b = int64_t(rng() % uint64_t(span));
                if (a > b) std::swap(a, b);
                if (a == b) ++b;
                const int width = 1 + int(rng() % 700);
                const auto buckets = lod.buckets(a, b, width);
                QCOMPARE(int(buckets.size()), width);
                // Brute force: assign each sample by the same edge rule.
                std::vector<MetricBucket> want(static_cast<size_t>(width));
                std::vector<double> sums(static_cast<size_t>(width), 0.0);
                const long double step = (long double)(b - a) / width;
                int64_t inRange = 0;
                for (size_t i = 0; i < s.t.size(); ++i) {
                    if (s.t[i] < a || s.t[i] >= b) continue;
                    ++inRange;
                    int k = 0;
                    while (k + 1 < width && s.t[i] >= a + int64_t(step * (long double)(k + 1))) ++k;
                    MetricBucket &w = want[size_t(k)];
                    if (w.count == 0) w.first = w.min = w.max = s.v[i];
                    w.min = std::min(w.min, s.v[i]);
                    w.max = std::max(w.max, s.v[i]);
                    w.last = s.v[i];
                    ++w.count;
                    sums[size_t(k)] += double(s.v[i]);
                }
                int64_t counted = 0;
                for (int k = 0; k < width; ++k) {
                    const MetricBucket &g = buckets[size_t(k)], &w = want[size_t(k)];
                    QCOMPARE(g.count, w.count);
                    counted += g.count;
                    if (!w.count) continue;
                    QCOMPARE(g.first, w.first);
                    QCOMPARE(g.min, w.min);
                    QCOMPARE(g.max, w.max);
                    QCOMPARE(g.last, w.last);
                }
                QCOMPARE(counted, inRange);  // nothing lost, nothing counted twice
                // The buckets' means (a grouped Utilization panel's line across ranks): the same buckets.
                const auto means = lod.bucketMeans(a, b, width);
                QCOMPARE(int(means.size()), width);
                for (int k = 0; k < width; ++k) {
                    QCOMPARE(means[size_t(k)].second, want[size_t(k)].count);
                    if (want[size_t(k)].count)
                        QVERIFY(std::abs(means[size_t(k)].first - sums[size_t(k)] / double(want[size_t(k)].count)) <
                                1e-9 * std::max(1.0, std::abs(sums[size_t(k)])));
                }

                const MetricStats st = lod.stats(a, b);
                QCOMPARE(st.count, inRange);
                double sum = 0, mn = 0, mx = 0;
                bool any = false;
                for (size_t i = 0; i < s.t.size(); ++i)
                    if (s.t[i] >= a && s.t[i] < b) {
                        mn = any ? std::min(mn, double(s.v[i])) : double(s.v[i]);
                        mx = any ? std::max(mx, double(s.v[i])) : double(s.v[i]);
                        sum += double(s.v[i]);
                        any = true;
                    }
                if (any) {
                    QCOMPARE(st.min, mn);
                    QCOMPARE(st.max, mx);
                    QVERIFY(std::abs(st.mean - sum / double(inRange)) < 1e-9 * std::max(1.0, std::abs(sum)));
                }
            }
        }
    }

    void bucketsOfEvenlySpacedSamplesWithGaps() {
        // What real metrics look like (and what the bucket search guesses from): a steady period
        // with jitter, a long hole and a burst of denser samples.
        std::mt19937_64 rng(7);
        std::vector<int64_t> t;
        std::vector<float> v;
        int64_t now = 0;
        for (int i = 0; i < 60000; ++i) {
            now += i == 20000 ? 5'000'000 : i > 40000 && i < 42000 ? 10 : 1000;
            t.push_back(now + int64_t(rng() % 300));
            v.push_back(float(rng() % 1000));
        }
        std::sort(t.begin(), t.end());  // the jitter reorders the burst's samples
        const MetricLod lod(t, v);
        for (const auto &[a, b, width] : {std::tuple<int64_t, int64_t, int>{0, now + 1000, 1333}, {15'000'000, 30'000'000, 700},
                                          {39'000'000, 45'000'000, 257}, {100, 900, 5}}) {
            const auto buckets = lod.buckets(a, b, width);
            const long double step = (long double)(b - a) / width;
            size_t i = size_t(std::lower_bound(t.begin(), t.end(), a) - t.begin());
            for (int k = 0; k < width; ++k) {
                const int64_t edge = k + 1 == width ? b : a + int64_t(step * (long double)(k + 1));
                float mn = 1e30f, mx = -1e30f;
                int64_t count = 0;
                for (; i < t.size() && t[i] < edge; ++i, ++count) {
                    mn = std::min(mn, v[i]);
                    mx = std::max(mx, v[i]);
                }
                QCOMPARE(buckets[size_t(k)].count, count);
                if (count) {
                    QCOMPARE(buckets[size_t(k)].min, mn);
                    QCOMPARE(buckets[size_t(k)].max, mx);
                }
            }
        }
    }

    void singleSpikeSurvivesAWeekAtOnePixel() {
        // A week of 100 ms samples, all 10 except one 99 and one -5: both visible at any width.
        const int64_t n = 7LL * 86400 * 10;
        std::vector<int64_t> t(static_cast<size_t>(n));
        std::vector<float> v(static_cast<size_t>(n), 10.0f);
        for (int64_t i = 0; i < n; ++i) t[size_t(i)] = i * 100'000'000;
        v[size_t(n / 3)] = 99;
        v[size_t(n / 2 + 7)] = -5;
        const MetricLod lod(std::move(t), std::move(v));
        QVERIFY(lod.levels() >= 5);
        for (int width : {1, 3, 1000, 2560}) {
            const auto b = lod.buckets(0, n * 100'000'000, width);
            float mx = -1e9f, mn = 1e9f;
            int64_t count = 0;
            for (const MetricBucket &k : b) {
                if (!k.count) continue;
                mx = std::max(mx, k.max);
                mn = std::min(mn, k.min);
                count += k.count;
            }
            QCOMPARE(mx, 99.0f);
            QCOMPARE(mn, -5.0f);
            QCOMPARE(count, n);
        }
        QVERIFY(lod.memoryBytes() < size_t(n) * 131 / 10);  // 12 B/sample + 16 B per 16 samples of summary
    }

    void valueAtRespectsGaps() {
        MetricSeriesModel m;
        std::vector<MetricSeries> list;
        list.push_back({{1, 1, "r", "gpu_util", "%", 0, 1'000'000'000, {}},
                        MetricLod({0, 1'000'000'000, 10'000'000'000}, {5, 6, 7})});
        m.setSeries(std::move(list));
        QVERIFY(!m.valueAt(0, -1'000'000'001));  // before the first sample's period
        QCOMPARE(*m.valueAt(0, -1), 5.0);          // the sample at 0 measured the second before it
        QCOMPARE(*m.valueAt(0, 0), 5.0);
        QCOMPARE(*m.valueAt(0, 1), 6.0);           // ... and the one at 1 s the second after 0
        QCOMPARE(*m.valueAt(0, 1'500'000'000), 6.0);
        QVERIFY(!m.valueAt(0, 5'000'000'000));  // 4 s after the last sample of a 1 s series: a gap
        QCOMPARE(*m.valueAt(0, 10'000'000'000), 7.0);
        QCOMPARE(m.extent(), (NsRange{0, 10'000'000'000}));
    }

    void loaderAppliesOffsetAndDerivesCpuSummaries() {
        QTemporaryDir dir;
        SessionStore store(std::filesystem::path(dir.path().toStdString()) / "s.stepscope");
        {
            SessionWriter w(store);
            w.begin();
            const int64_t src = w.addSource("/data/system.json", "smdebug_system", 0);
            const int64_t c0 = w.addMetricSeries(src, "algo-1", "cpu_util", int64_t(0), "%", 1'000'000'000);
            const int64_t c1 = w.addMetricSeries(src, "algo-1", "cpu_util", int64_t(1), "%", 1'000'000'000);
            for (int i = 0; i < 4; ++i) {
                w.addMetricSample(c0, i * 1'000'000'000LL, 10.0 * i);
                w.addMetricSample(c1, i * 1'000'000'000LL, 100.0 - 10.0 * i);
            }
            w.finishSource(src, 8, 0, SourceStatus::Ok);
            w.commit();
        }
        store.setClockOffsetNs("/data/system.json", 2'000'000'000);
        const auto series = MetricSeriesLoader::load(store);
        QCOMPARE(int(series.size()), 4);  // two cores + busiest core + mean of cores
        QCOMPARE(series[0].lod.times().front(), int64_t(2'000'000'000));
        const MetricSeries &busiest = series[2], &mean = series[3];
        QCOMPARE(busiest.info.label, std::string("busiest core"));
        QCOMPARE(mean.info.label, std::string("mean of 2 cores"));
        QCOMPARE(busiest.lod.values(), (std::vector<float>{100, 90, 80, 70}));
        QCOMPARE(mean.lod.values(), (std::vector<float>{50, 50, 50, 50}));
        QCOMPARE(busiest.lod.times().back(), int64_t(5'000'000'000));
    }
};

QTEST_MAIN(TstMetricLod)
#include "tst_metric_lod.moc"

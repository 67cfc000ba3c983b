// BottleneckRules on hand-built analyses (every number set by the test): device_compute from 90%
// kernel coverage, else the category with the most exposed time; and the detail each bottleneck
// gets from its evidence — input: preprocessing or io from CPU metrics, a throughput cap or the
// traced work nested in the input wait; kernel_launch: small kernels or launch overhead from the
// median kernel; h2d: pageable memory or copy volume; checkpoint: periodic or every step.
#include "models/analysis/rules/bottleneck_rules.h"

#include <QtTest>

using namespace stepscope;

namespace {

constexpr int64_t kMs = 1'000'000;

// Four steps of 100 ms; each category's type index is its enum value; `perStepMs` what each step
// spends in each category (the rest of the step is device compute).
struct HandBuilt {
    RunAnalysis ra;
    TraceData trace;
    std::vector<int8_t> types;
    MetricData metrics;

    explicit HandBuilt(const std::map<Category, std::vector<int64_t>> &perStepMs, double coveragePct) {
        ra.breakdown.types.resize(kCategoryCount);
        for (int c = 0; c < kCategoryCount; ++c) {
            ra.categoryType[size_t(c)] = c;
            ra.breakdown.types[size_t(c)] = std::string(kCategoryNames[size_t(c)]);
        }
        ra.breakdown.totalNs.assign(kCategoryCount, 0);
        for (int k = 0; k < 4; ++k) {
            ra.steps.steps.push_back({k + 1, k * 100 * kMs, (k + 1) * 100 * kMs, k * 100 * kMs, (k + 1) * 100 * kMs, 0});
            std::vector<int64_t> row(kCategoryCount, 0);
            int64_t rest = 100 * kMs;
            for (const auto &[c, ms] : perStepMs) row[size_t(c)] = ms[size_t(k)] * kMs, rest -= ms[size_t(k)] * kMs;
            row[size_t(Category::DeviceCompute)] = rest;
            for (int c = 0; c < kCategoryCount; ++c) ra.breakdown.totalNs[size_t(c)] += row[size_t(c)];
            ra.breakdown.perStepNs.push_back(row);
        }
        ra.breakdown.stepTotalNs = 400 * kMs;
        ra.computeCoveragePct = coveragePct;
        ra.gpuTraced = true;
        trace.tracks.push_back({1, false, -1, "python", 0, 0});
        trace.tracks.push_back({2, true, 0, "stream 7", 0, 0});
    }
    // A slice of category `c` on the host thread (gpu=false) or the stream, `childMs` of it covered by children.
    void slice(Category c, bool gpu, int64_t startNs, int64_t endNs, int64_t childNs = 0, const std::string &name = "op") {
        TraceSlice s;
        s.start = startNs;
        s.end = endNs;
        s.selfNs = (endNs - startNs) - childNs;  // what its children do not cover
        s.gpu = gpu;
        s.track = gpu ? 1 : 0;
        s.nameId = int32_t(trace.strings.size());
        trace.strings[s.nameId] = name;
        trace.slices.push_back(s);
        types.push_back(int8_t(c));
    }
    void cpu(double busyPct) {
        MetricTrack t{"cpu_util", "%", -1, {}};
        for (int64_t ms = 0; ms <= 400; ms += 50) t.points.push_back({ms * kMs, busyPct});
        metrics.series["cpu_util"].push_back(t);
    }
    RunAnalysis &decide() {
        BottleneckRules::decide(ra, trace, types, metrics);
        return ra;
    }
};

} // namespace

class TestBottleneckRules : public QObject {
    Q_OBJECT

private slots:
    void deviceComputeFromNinetyPercentCoverage() {
        HandBuilt at({{Category::Input, {5, 5, 5, 5}}}, 90.0);
        QCOMPARE(at.decide().bottleneck, std::string("device_compute"));
        QVERIFY(QString::fromStdString(at.ra.bottleneckEvidence).contains("90.0% of step time (>= 90%)"));
        // Just under: the category with the most exposed time, even a small one.
        HandBuilt below({{Category::Input, {5, 5, 5, 5}}, {Category::Checkpoint, {0, 0, 0, 8}}}, 89.9);
        QCOMPARE(below.decide().bottleneck, std::string("input"));
        QVERIFY(QString::fromStdString(below.ra.bottleneckEvidence).startsWith("input takes 5.0% of step time; kernels cover 89.9%"));
    }

    void inputDetailFromCpuMetrics() {
        HandBuilt busy({{Category::Input, {40, 40, 40, 40}}}, 50);
        busy.cpu(85);
        QCOMPARE(busy.decide().bottleneckDetail, std::string("preprocessing"));
        QVERIFY(QString::fromStdString(busy.ra.bottleneckEvidence).contains("CPU 85.0% busy"));
        HandBuilt idle({{Category::Input, {40, 40, 40, 40}}}, 50);
        idle.cpu(20);
        QCOMPARE(idle.decide().bottleneckDetail, std::string("io"));  // nothing traced inside the wait either
        // Reading at the network's cap with idle CPUs: io, and the evidence says why.
        HandBuilt capped({{Category::Input, {40, 40, 40, 40}}}, 50);
        capped.cpu(20);
        capped.slice(Category::Input, false, 0, 40 * kMs, 30 * kMs);  // traced work inside: would say preprocessing
        MetricTrack net{"net_in", "B/s", -1, {}};
        for (int64_t ms = 0; ms <= 400; ms += 50) net.points.push_back({ms * kMs, 1e9});
        capped.metrics.series["net_in"].push_back(net);
        QCOMPARE(capped.decide().bottleneckDetail, std::string("io"));
        QVERIFY(QString::fromStdString(capped.ra.bottleneckEvidence).contains("network-in at its cap"));
    }

    void inputDetailFromNestedWorkWithoutMetrics() {
        HandBuilt transforms({{Category::Input, {40, 40, 40, 40}}}, 50);
        transforms.slice(Category::Input, false, 0, 40 * kMs, 30 * kMs);  // 75% of the wait is traced work
        QCOMPARE(transforms.decide().bottleneckDetail, std::string("preprocessing"));
        QCOMPARE(transforms.ra.inputTracedBusyFraction, 0.75);
        HandBuilt reading({{Category::Input, {40, 40, 40, 40}}}, 50);
        reading.slice(Category::Input, false, 0, 40 * kMs, 10 * kMs);
        QCOMPARE(reading.decide().bottleneckDetail, std::string("io"));
        QVERIFY(QString::fromStdString(reading.ra.bottleneckEvidence).contains("25.0% of the input wait"));
    }

    void kernelLaunchDetailFromTheMedianKernel() {
        HandBuilt small({{Category::KernelLaunch, {60, 60, 60, 60}}}, 30);
        for (int i = 0; i < 5; ++i) small.slice(Category::DeviceCompute, true, i * kMs, i * kMs + 4'000);  // 4 us
        QCOMPARE(small.decide().bottleneck, std::string("kernel_launch"));
        QCOMPARE(small.ra.bottleneckDetail, std::string("small_kernels"));
        HandBuilt big({{Category::KernelLaunch, {60, 60, 60, 60}}}, 30);
        for (int i = 0; i < 5; ++i) big.slice(Category::DeviceCompute, true, i * kMs, i * kMs + 50'000);  // 50 us
        QCOMPARE(big.decide().bottleneckDetail, std::string("launch_overhead"));
    }

    void h2dDetailFromPageableCopies() {
        HandBuilt pageable({{Category::H2D, {50, 50, 50, 50}}}, 40);
        pageable.slice(Category::H2D, true, 0, 10 * kMs, 0, "Memcpy HtoD (Pageable -> Device)");
        QCOMPARE(pageable.decide().bottleneckDetail, std::string("pageable_memory"));
        HandBuilt pinned({{Category::H2D, {50, 50, 50, 50}}}, 40);
        pinned.slice(Category::H2D, true, 0, 10 * kMs, 0, "Memcpy HtoD (Pinned -> Device)");
        QCOMPARE(pinned.decide().bottleneckDetail, std::string("copy_volume"));
    }

    void checkpointPeriodicOrEveryStep() {
        HandBuilt periodic({{Category::Checkpoint, {0, 0, 0, 90}}}, 50);
        QCOMPARE(periodic.decide().bottleneck, std::string("checkpoint"));
        QCOMPARE(periodic.ra.bottleneckDetail, std::string("periodic"));
        HandBuilt every({{Category::Checkpoint, {30, 30, 30, 30}}}, 50);
        QCOMPARE(every.decide().bottleneckDetail, std::string("every_step"));
    }

    void untracedTimeIsOther() {
        HandBuilt other({{Category::Other, {50, 50, 50, 50}}}, 40);
        QCOMPARE(other.decide().bottleneck, std::string("other"));
        QCOMPARE(other.ra.bottleneckDetail, std::string("untraced_host_time"));
    }

    void noStepsNoVerdict() {
        RunAnalysis ra;
        BottleneckRules::decide(ra, TraceData{}, {}, MetricData{});
        QVERIFY(ra.bottleneck.empty());
    }
};

QTEST_GUILESS_MAIN(TestBottleneckRules)
#include "tst_bottleneck_rules.moc"

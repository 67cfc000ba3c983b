// The critical path per step (issue #33, item 1): a hand-built step whose path is known to the
// nanosecond; generated loops with known chains (the healthy loop's path is device compute, the
// input-bound loop's mostly input, the collective loop's runs through the all-reduce that the optimizer
// stream waits for) whose path length equals the step time; a job whose path runs through the rank
// that arrives last at the joins; the real H200 recordings, where the path explains nearly all of each
// step and names the phase each variant added.
#include "app/synth/synthetic_job_generator.h"
#include "app/synth/synthetic_profile_generator.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;
using test::kMs;
using test::kUs;

namespace {

int64_t pathNs(const RunAnalysis &a, Category c) {
    const int t = a.categoryType[size_t(c)];
    return a.criticalPath && t >= 0 ? a.criticalPath->totalPerTypeNs[size_t(t)] : 0;
}
double pathPct(const RunAnalysis &a, Category c) {
    return a.criticalPath && a.criticalPath->totalLengthNs > 0 ? 100.0 * double(pathNs(a, c)) / double(a.criticalPath->totalLengthNs) : 0;
}
double coveragePct(const RunAnalysis &a) { return 100.0 * double(a.criticalPath->totalLengthNs) / double(a.steps.totalNs()); }

RunAnalysis generated(synth::Bottleneck b) {
    QTemporaryDir dir;
    synth::SyntheticProfileOptions o;
    o.steps = 6;
    o.seed = 5;
    o.bottleneck = b;
    const std::filesystem::path file = dir.filePath("t.pt.trace.json.gz").toStdString();
    synth::SyntheticProfileGenerator(o).generate(file, {});
    test::ImportedSession s({file});
    return s.report().runs.at(0).analysis;
}

QString describe(const RunAnalysis &a) {
    QString out = QString("length %1 of %2 ms:").arg(double(a.criticalPath->totalLengthNs) / 1e6).arg(double(a.steps.totalNs()) / 1e6);
    for (int c = 0; c < kCategoryCount; ++c)
        if (pathNs(a, Category(c)) > 0) out += QString(" %1 %2%").arg(QString::fromUtf8(kCategoryNames[size_t(c)].data())).arg(pathPct(a, Category(c)), 0, 'f', 1);
    return out;
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
private slots:
    // Input 4 ms, a 0.1 ms launch, the 4.8 ms kernel it launched (the host waits for it in a sync,
    // which is not work), then 0.95 ms of the host's own untraced time under the step marker.
    void handBuiltStepIsExact() {
        test::AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", 0, 4 * kMs);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 4 * kMs, 4100 * kUs, 1);
        f.slice(f.host, "cudaStreamSynchronize", "cuda_runtime", 4100 * kUs, 9050 * kUs);
        f.slice(gpu, "volta_sgemm_128x64_nn", "kernel", 4200 * kUs, 9 * kMs, 1);
        // A second stream's short kernel that nothing waits for: never on the path.
        const int64_t side = f.stream(0, "stream 9");
        f.slice(side, "side_kernel", "kernel", 4500 * kUs, 4600 * kUs);
        f.step(1, 0, 10 * kMs);
        const RunAnalysis a = f.analyze();
        QVERIFY(a.criticalPath && a.criticalPath->steps.size() == 1);
        QCOMPARE(a.steps.totalNs(), 10 * kMs);
        QCOMPARE(a.criticalPath->steps[0].lengthNs, 4 * kMs + 100 * kUs + 4800 * kUs + 950 * kUs);
        QCOMPARE(pathNs(a, Category::Input), 4 * kMs);
        QCOMPARE(pathNs(a, Category::KernelLaunch), 100 * kUs);
        QCOMPARE(pathNs(a, Category::DeviceCompute), 4800 * kUs);
        QCOMPARE(pathNs(a, Category::Other), 950 * kUs);
        const auto &segments = a.criticalPath->steps[0].segments;
        QCOMPARE(segments.size(), size_t(4));
        QCOMPARE(segments[2].start, 4200 * kUs);  // the kernel, on the GPU track
        QCOMPARE(segments[2].end, 9 * kMs);
        QVERIFY(segments[2].trackId == gpu);
        QCOMPARE(a.criticalPath->topNames.front().name, std::string("volta_sgemm_128x64_nn"));
    }

    // Without the sync the host does not wait: its own chain (input, launch, untraced time to the
    // step's end) is longer than the kernel's, and the path stays on the host.
    void withoutTheSyncThePathStaysOnTheHost() {
        test::AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", 0, 4 * kMs);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 4 * kMs, 4100 * kUs, 1);
        f.slice(gpu, "volta_sgemm_128x64_nn", "kernel", 4200 * kUs, 5 * kMs, 1);
        f.step(1, 0, 10 * kMs);
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.criticalPath->steps[0].lengthNs, 10 * kMs);
        QCOMPARE(pathNs(a, Category::DeviceCompute), int64_t(0));
        QCOMPARE(pathNs(a, Category::Other), 5900 * kUs);
    }

    void generatedLoops() {
        const RunAnalysis healthy = generated(synth::Bottleneck::None);
        QVERIFY2(coveragePct(healthy) > 98 && coveragePct(healthy) <= 100.0001, qPrintable(describe(healthy)));
        QVERIFY2(pathPct(healthy, Category::DeviceCompute) > 90, qPrintable(describe(healthy)));

        const RunAnalysis input = generated(synth::Bottleneck::Input);
        QVERIFY2(coveragePct(input) > 98, qPrintable(describe(input)));
        QVERIFY2(pathPct(input, Category::Input) > 45, qPrintable(describe(input)));
        QVERIFY2(pathPct(input, Category::Input) > pathPct(healthy, Category::Input) + 40, qPrintable(describe(input)));

        // The optimizer's stream waits for the all-reduce on the NCCL stream (cudaStreamWaitEvent):
        // the path goes through it, so it explains the step.
        const RunAnalysis collective = generated(synth::Bottleneck::Collective);
        QVERIFY2(coveragePct(collective) > 98, qPrintable(describe(collective)));
        QVERIFY2(pathPct(collective, Category::Collective) > 25, qPrintable(describe(collective)));

        const RunAnalysis launch = generated(synth::Bottleneck::KernelLaunch);
        QVERIFY2(pathPct(launch, Category::KernelLaunch) > 70, qPrintable(describe(launch)));
    }

    // Across ranks: the job's path goes through the rank that arrives last at each step's first
    // all-reduce; for a rank whose DataLoader is 30 ms late that is it, and input lies on its path before
    // the join. In a balanced job no rank's input does.
    void jobPathThroughTheJoins() {
        QTemporaryDir dir;
        synth::SyntheticJobOptions o;
        o.ranks = 4;
        o.rank.steps = 6;
        o.stragglerRank = 2;
        o.stragglerCause = synth::LateCause::Input;
        o.stragglerNs = 30 * kMs;
        test::ImportedSession s(synth::generateJob(o, dir.path().toStdString()).files);
        const Report report = s.report();
        QVERIFY(report.job && report.job->criticalPath);
        const JobCriticalPath &p = *report.job->criticalPath;
        QCOMPARE(p.rank, int64_t(2));
        QCOMPARE(p.stepsSet, int64_t(6));
        for (const int64_t r : p.rankPerStep) QCOMPARE(r, int64_t(2));
        int64_t total = 0;
        for (const int64_t ns : p.beforeJoinNs) total += ns;
        QVERIFY(total > 0);
        QVERIFY2(p.beforeJoinNs[size_t(Category::Input)] * 4 > total, qPrintable(QString::number(p.beforeJoinMsMean)));
        QVERIFY(p.topEvents.front().name.find("DataLoader") != std::string::npos);

        QTemporaryDir balancedDir;
        o.stragglerRank = -1;
        test::ImportedSession b(synth::generateJob(o, balancedDir.path().toStdString()).files);
        const Report balanced = b.report();
        QVERIFY(balanced.job && balanced.job->criticalPath);
        int64_t btotal = 0;
        for (const int64_t ns : balanced.job->criticalPath->beforeJoinNs) btotal += ns;
        QVERIFY(balanced.job->criticalPath->beforeJoinNs[size_t(Category::Input)] * 10 < btotal);
    }

    void realRecordings_data() {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("expected");
        QTest::newRow("slow input") << "slow_input" << int(Category::Input);
        QTest::newRow("checkpoint") << "checkpoint" << int(Category::Checkpoint);
        QTest::newRow("cuda graph") << "cuda_graph" << int(Category::DeviceCompute);
    }
    // On the H200 recordings the path explains at least 90 % of every step, and the phase a variant
    // added leads it (the CUDA-graph loop, which leaves the host idle, is bound by its kernels).
    void realRecordings() {
        QFETCH(QString, variant);
        QFETCH(int, expected);
        test::ImportedSession s({test::testData("gpu/" + variant.toStdString() + ".pt.trace.json.gz")});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        QVERIFY(a.criticalPath && !a.criticalPath->steps.empty());
        QVERIFY2(coveragePct(a) > 90 && coveragePct(a) <= 100.0001, qPrintable(describe(a)));
        for (int c = 0; c < kCategoryCount; ++c)
            if (c != expected && c != int(Category::Other))
                QVERIFY2(pathNs(a, Category(c)) < pathNs(a, Category(expected)), qPrintable(describe(a)));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"

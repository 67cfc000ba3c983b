// Step-time breakdown, device-time steps, presets, GPU busy, gaps and op statistics on hand-built
// sessions whose every number is worked out by hand in the comments.

#include "tests/analysis/analysis_fixture.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

namespace {

// Step 1 (marker 0-90 ms, its kernel ends at 100 ms): DataLoader wait 0-40 (aten::stack 30-35 inside),
// a conv launching at 40 ms, the kernel 40-100 -> input 40, device_compute 60.
// Step 2 (marker 100-200 ms): torch.save 100-110 with a DtoH copy 102-104; kernels 110-150; an NCCL
// all-reduce 140-170 on a second stream; HtoD copy 170-175; nothing 175-180; on_train_batch_end 180-200.
// -> d2h 2, checkpoint 8, device_compute 40, collective 20, h2d 5, other 5, callback 20.
void buildTwoSteps(AnalysisFixture &f) {
    const int64_t s7 = f.stream(0, "stream 7"), s13 = f.stream(0, "stream 13");
    f.step(1, 0, 90 * kMs);
    f.step(2, 100 * kMs, 200 * kMs);
    f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 90 * kMs);
    f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", 0, 40 * kMs);
    f.slice(f.host, "aten::stack", "cpu_op", 30 * kMs, 35 * kMs);
    f.slice(f.host, "aten::conv2d", "cpu_op", 40 * kMs, 40 * kMs + 5 * kUs);
    f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 40 * kMs + 1 * kUs, 40 * kMs + 4 * kUs, 1);
    f.slice(s7, "implicit_convolve_sgemm", "kernel", 40 * kMs, 100 * kMs, 1);
    f.slice(f.host, "ProfilerStep#2", "user_annotation", 100 * kMs, 200 * kMs);
    f.slice(f.host, "torch.save", "user_annotation", 100 * kMs, 110 * kMs);
    f.slice(s7, "Memcpy DtoH (Device -> Pageable)", "gpu_memcpy", 102 * kMs, 104 * kMs);
    f.slice(s7, "volta_sgemm_128x64_nn", "kernel", 110 * kMs, 150 * kMs);
    f.slice(s13, "ncclKernel_AllReduce_RING_LL_Sum_float", "kernel", 140 * kMs, 170 * kMs);
    f.slice(s7, "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 170 * kMs, 175 * kMs);
    f.slice(f.host, "on_train_batch_end", "user_annotation", 180 * kMs, 200 * kMs);
}

} // namespace

class TestAnalysisBreakdown : public QObject {
    Q_OBJECT
private slots:
    void inputAndComputeExactly() {
        AnalysisFixture f(1'700'000'000'000'000'000);
        buildTwoSteps(f);
        AnalysisOptions o;
        o.lastStep = 1;
        const RunAnalysis a = f.analyze(o);
        QCOMPARE(a.steps.steps.size(), size_t(1));
        // Moved onto device time: the marker ends at 90 ms, its kernel at 100 ms.
        QCOMPARE(a.steps.steps[0].start, 1'700'000'000'000'000'000);
        QCOMPARE(a.steps.steps[0].dur(), 100 * kMs);
        QCOMPARE(a.categoryNs(0, Category::Input), 40 * kMs);
        QCOMPARE(a.categoryNs(0, Category::DeviceCompute), 60 * kMs);
        for (Category c : {Category::Collective, Category::H2D, Category::KernelLaunch, Category::HostCompute, Category::Other})
            QCOMPARE(a.categoryNs(0, c), int64_t(0));
        QCOMPARE(a.bottleneck, std::string("input"));
        // 5 ms of traced work (aten::stack) in 40 ms of waiting: the rest is untraced reading -> io.
        QCOMPARE(a.inputTracedBusyFraction, 0.125);
        QCOMPARE(a.bottleneckDetail, std::string("io"));
    }

    void everyCategoryByPriority() {
        AnalysisFixture f;
        buildTwoSteps(f);
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.steps.steps.size(), size_t(2));
        QCOMPARE(a.steps.steps[1].start, 100 * kMs);
        QCOMPARE(a.steps.steps[1].dur(), 100 * kMs);
        QCOMPARE(a.categoryNs(1, Category::D2H), 2 * kMs);
        QCOMPARE(a.categoryNs(1, Category::Checkpoint), 8 * kMs);
        QCOMPARE(a.categoryNs(1, Category::DeviceCompute), 40 * kMs);
        QCOMPARE(a.categoryNs(1, Category::Collective), 20 * kMs);
        QCOMPARE(a.categoryNs(1, Category::H2D), 5 * kMs);
        QCOMPARE(a.categoryNs(1, Category::Other), 5 * kMs);
        QCOMPARE(a.categoryNs(1, Category::Callback), 20 * kMs);
        int64_t sum = 0;
        for (int c = 0; c < kCategoryCount; ++c) sum += a.categoryNs(1, Category(c));
        QCOMPARE(sum, 100 * kMs);
        // Kernels (compute or collective) run 60 + 60 of 200 ms; non-collective kernels 100 of 200.
        QCOMPARE(a.gpuBusyPct, 60.0);
        QCOMPARE(a.computeCoveragePct, 50.0);
        // Without the 90% compute coverage the largest other category wins: input 40 ms.
        QCOMPARE(a.bottleneck, std::string("input"));
    }

    void tensorflowAndPytorchPresets() {
        AnalysisFixture f;
        buildTwoSteps(f);
        AnalysisOptions o;
        o.firstStep = 2;
        o.preset = "tensorflow";
        const RunAnalysis tf = f.analyze(o);
        QVERIFY(tf.presetBreakdown);
        std::map<std::string, int64_t> tfLabels;
        for (const auto &[l, ns] : tf.presetBreakdown->byLabel(tf.presetBreakdown->perStepNs[0])) tfLabels[l] = ns;
        QCOMPARE(tfLabels["Device Compute"], 40 * kMs);
        QCOMPARE(tfLabels["Output"], 2 * kMs);
        QCOMPARE(tfLabels["Device Collective Communication"], 20 * kMs);
        QCOMPARE(tfLabels["Input"], 5 * kMs);           // the HtoD copy
        QCOMPARE(tfLabels["Host Compute"], 28 * kMs);   // torch.save 8 + callback 20: TF has no such types
        QCOMPARE(tfLabels["All Others"], 5 * kMs);
        QCOMPARE(tf.presetBreakdown->byLabel(tf.presetBreakdown->totalNs).size(), size_t(9));

        o.preset = "pytorch";
        const RunAnalysis pt = f.analyze(o);
        std::map<std::string, int64_t> ptLabels;
        for (const auto &[l, ns] : pt.presetBreakdown->byLabel(pt.presetBreakdown->perStepNs[0])) ptLabels[l] = ns;
        QCOMPARE(ptLabels["Kernel"], 40 * kMs);
        QCOMPARE(ptLabels["Memcpy"], 7 * kMs);
        QCOMPARE(ptLabels["Communication"], 20 * kMs);
        QCOMPARE(ptLabels["CPU Exec"], 28 * kMs);
        QCOMPARE(ptLabels["Other"], 5 * kMs);
        QCOMPARE(pt.presetBreakdown->byLabel(pt.presetBreakdown->totalNs).size(), size_t(8));
    }

    void gapsPerDeviceAttributedToHost() {
        AnalysisFixture f;
        buildTwoSteps(f);
        const RunAnalysis a = f.analyze();
        // Device 0 idles 100-102 and 104-110 (inside torch.save); 170/175 touch, the tail is no gap.
        QCOMPARE(a.gaps.device.count, int64_t(2));
        QCOMPARE(a.gaps.device.totalNs, 8 * kMs);
        QCOMPARE(a.gaps.device.byCauseNs[size_t(GapCause::Other)], 8 * kMs);
        QCOMPARE(a.gaps.byHostActivityNs.at("checkpoint"), 8 * kMs);
        QCOMPARE(a.gaps.top.front().dur, 6 * kMs);
        QCOMPARE(a.gaps.top.front().start, 104 * kMs);
        QCOMPARE(a.gaps.top.front().overlapping.front(), std::string("torch.save"));
        // Stream 7 alone also idles 150-170 while stream 13 runs the all-reduce: 2 + 6 + 20.
        const auto s7 = std::find_if(a.gaps.streams.begin(), a.gaps.streams.end(), [](const StreamGaps &s) { return s.stream == "stream 7"; });
        QCOMPARE(s7->totals.totalNs, 28 * kMs);
    }

    void htaGapCauses() {
        AnalysisFixture f;
        const int64_t s = f.stream(0, "stream 7");
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 0, 1 * kUs, 1);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 2 * kUs, 3 * kUs, 3);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 4 * kUs, 5 * kUs, 4);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 15 * kUs, 16 * kUs, 2);
        f.slice(s, "k1", "kernel", 1 * kUs, 10 * kUs, 1);
        f.slice(s, "k2", "kernel", 20 * kUs, 30 * kUs, 2);           // launched at 15 > 10: host_wait, 10 us
        f.slice(s, "k3", "kernel", 30 * kUs + 20, 40 * kUs, 3);      // 20 ns < 30 ns: kernel_wait
        f.slice(s, "k4", "kernel", 50 * kUs, 60 * kUs, 4);           // launched long before: other, 10 us
        const RunAnalysis a = f.analyze();
        QVERIFY(!a.steps.hasSteps());
        QCOMPARE(a.steps.steps.size(), size_t(1));
        QCOMPARE(a.gaps.device.count, int64_t(3));
        QCOMPARE(a.gaps.device.byCauseNs[size_t(GapCause::HostWait)], 10 * kUs);
        QCOMPARE(a.gaps.device.byCauseNs[size_t(GapCause::KernelWait)], int64_t(20));
        QCOMPARE(a.gaps.device.byCauseNs[size_t(GapCause::Other)], 10 * kUs);
        // The host was launching (k2's launch call) during 15-16 of the 10-20 gap, otherwise idle.
        QCOMPARE(a.gaps.top.front().hostActivity, std::string("nothing_traced"));
    }

    void opStatsHostAndDeviceSeparately() {
        AnalysisFixture f;
        buildTwoSteps(f);
        const int64_t s = f.stream(1, "stream 7");
        f.slice(s, "volta_sgemm_128x64_nn", "kernel", 120 * kMs, 121 * kMs);
        const RunAnalysis a = f.analyze();
        auto find = [&](const std::string &name, int device) {
            return std::find_if(a.ops.begin(), a.ops.end(), [&](const OpStat &o) { return o.name == name && o.device == device; });
        };
        const auto dl = find("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", -1);
        QVERIFY(dl != a.ops.end());
        QCOMPARE(dl->count, int64_t(1));
        QCOMPARE(dl->totalNs, 40 * kMs);
        QCOMPARE(dl->selfNs, 35 * kMs);   // aten::stack 30-35 nested in it
        const auto conv = find("aten::conv2d", -1);
        QCOMPARE(conv->selfNs, 2 * kUs);  // 5 us minus its 3 us launch call
        const auto gemm0 = find("volta_sgemm_128x64_nn", 0), gemm1 = find("volta_sgemm_128x64_nn", 1);
        QCOMPARE(gemm0->totalNs, 40 * kMs);
        QCOMPARE(gemm1->totalNs, 1 * kMs);
        QCOMPARE(gemm1->minNs, 1 * kMs);
        QVERIFY(find("ProfilerStep#1", -1) == a.ops.end());  // step markers are not ops
        // Restricted to step 2, step 1's DataLoader is gone.
        AnalysisOptions o;
        o.firstStep = 2;
        const RunAnalysis b = f.analyze(o);
        QVERIFY(std::none_of(b.ops.begin(), b.ops.end(), [](const OpStat &x) { return x.name.starts_with("enumerate"); }));
    }

    void kernelLaunchBoundOps() {
        // 10 tiny kernels of 2 us, each launched by a 20 us aten op (its launch call 5 us): the GPU idles
        // while the host dispatches ops that launch kernels -> kernel_launch.
        AnalysisFixture f;
        const int64_t s = f.stream(0, "stream 7");
        f.step(1, 0, 200 * kUs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 200 * kUs);
        for (int i = 0; i < 10; ++i) {
            const int64_t t = i * 20 * kUs;
            f.slice(f.host, "aten::add", "cpu_op", t, t + 20 * kUs);
            f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", t + 10 * kUs, t + 15 * kUs, 100 + i);
            f.slice(s, "elementwise_kernel", "kernel", t + 16 * kUs, t + 18 * kUs, 100 + i);
        }
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.categoryNs(0, Category::DeviceCompute), 20 * kUs);
        QCOMPARE(a.categoryNs(0, Category::KernelLaunch), 180 * kUs);
        QCOMPARE(a.bottleneck, std::string("kernel_launch"));
        QCOMPARE(a.bottleneckDetail, std::string("small_kernels"));
        // A CPU op that launches nothing is host compute.
        AnalysisFixture g;
        g.slice(g.host, "aten::add", "cpu_op", 0, 10 * kUs);
        QCOMPARE(g.analyze().categoryNs(0, Category::HostCompute), 10 * kUs);
    }

    void deviceComputeBound() {
        AnalysisFixture f;
        const int64_t s = f.stream(0, "stream 7");
        f.step(1, 0, 100 * kMs);
        f.slice(f.host, "enumerate(DataLoader)#x", "user_annotation", 0, 5 * kMs);
        f.slice(s, "gemm", "kernel", 5 * kMs, 100 * kMs);
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.computeCoveragePct, 95.0);
        QCOMPARE(a.bottleneck, std::string("device_compute"));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisBreakdown)
#include "tst_analysis_breakdown.moc"

// Collective bandwidth (issue #33, item 3): NCCL's bus-bandwidth factors; the kind from PyTorch's
// collective names and NCCL kernel names; a hand-built all-reduce of known size, time and overlap
// (algbw, busbw, exposed time exact), and an all-gather whose size comes from the record_param_comms
// op around its launch; a generated 4-rank job's all-reduce of known bucket size; the slow_collective
// finding on a loop whose all-reduce is exposed, none on a healthy job; the real single-GPU recording,
// where NCCL copies instead of launching collective kernels, so nothing is claimed.
#include "app/synth/synthetic_job_generator.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/engine/collective_stats.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;
using test::kMs;
using test::kUs;

namespace {
const CollectiveStat *find(const RunAnalysis &a, const std::string &kind) {
    for (const CollectiveStat &c : a.collectives)
        if (c.name == kind) return &c;
    return nullptr;
}
bool hasFinding(const RunAnalysis &a, const std::string &rule) {
    for (const Finding &f : a.findings)
        if (f.rule == rule) return true;
    return false;
}
} // namespace

class TestCollectiveStats : public QObject {
    Q_OBJECT
private slots:
    void busFactors() {
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("all_reduce", 8), 2.0 * 7 / 8);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("all_gather", 8), 7.0 / 8);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("reduce_scatter", 4), 3.0 / 4);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("all_to_all", 2), 0.5);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("broadcast", 8), 1.0);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("send_recv", 2), 1.0);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("all_reduce", 1), 0.0);
        QCOMPARE(CollectiveStatsAnalyzer::busFactor("barrier", 8), 0.0);
    }

    void kinds() {
        const std::pair<const char *, const char *> cases[] = {
            {"allreduce", "all_reduce"}, {"_allgather_base", "all_gather"}, {"allgather_into_tensor_coalesced", "all_gather"},
            {"reduce_scatter_tensor", "reduce_scatter"}, {"_reduce_scatter_base", "reduce_scatter"}, {"all_to_allv", "all_to_all"},
            {"broadcast", "broadcast"}, {"send", "send_recv"}, {"reduce", "reduce"},
            {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "all_reduce"},
            {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, ncclWork*)", "all_gather"},
            {"ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", "reduce_scatter"}, {"ncclDevKernel_SendRecv", "send_recv"},
            {"ncclDevKernel_Broadcast_RING_LL", "broadcast"}, {"volta_sgemm_128x64_nn", ""}};
        for (const auto &[text, kind] : cases) QCOMPARE(CollectiveStatsAnalyzer::kindOf(text), std::string(kind));
    }

    // 64 MiB of floats all-reduced by 8 GPUs in 1 ms, half of it beside a compute kernel; then an
    // all-gather whose kernel carries no args: the record_param_comms op around its launch gives
    // 1 Mi bf16 elements in, 8 Mi out.
    void handBuilt() {
        test::AnalysisFixture f(0, "NVIDIA H100 80GB HBM3");
        const int64_t compute = f.stream(0, "stream 7"), nccl = f.stream(0, "stream 13");
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 100 * kUs, 110 * kUs, 1);
        f.slice(compute, "volta_sgemm_128x64_nn", "kernel", 1 * kMs, 1500 * kUs, 1);
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 200 * kUs, 210 * kUs, 2);
        f.slice(nccl, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "kernel", 1 * kMs, 2 * kMs, 2,
                R"J({"Collective name": "allreduce", "In msg nelems": 16777216, "Out msg nelems": 16777216, "Group size": 8, "dtype": "Float"})J");
        f.slice(f.host, "record_param_comms", "cpu_op", 300 * kUs, 400 * kUs, std::nullopt,
                R"J({"Collective name": "_allgather_base", "In msg nelems": 1048576, "Out msg nelems": 8388608, "Group size": 8, "dtype": "BFloat16"})J");
        f.slice(f.host, "cudaLaunchKernel", "cuda_runtime", 320 * kUs, 330 * kUs, 3);
        f.slice(nccl, "ncclDevKernel_AllGather_RING_LL", "kernel", 3 * kMs, 5 * kMs, 3);
        f.step(1, 0, 10 * kMs);
        const RunAnalysis a = f.analyze();
        const CollectiveStat *ar = find(a, "all_reduce");
        QVERIFY(ar && ar->count == 1 && ar->groupSize == 8);
        QCOMPARE(ar->bytes, 67108864.0);
        QCOMPARE(*ar->algbwGbps, 67108864.0 / 1e6);
        QCOMPARE(*ar->busbwGbps, 67108864.0 / 1e6 * 2 * 7 / 8);
        QCOMPARE(ar->exposedNs, 500 * kUs);
        const CollectiveStat *ag = find(a, "all_gather");
        QVERIFY(ag && ag->sized == 1);
        QCOMPARE(ag->bytes, 8388608.0 * 2);
        QCOMPARE(*ag->busbwGbps, 8388608.0 * 2 / 2e6 * 7 / 8);
        QCOMPARE(ag->exposedNs, 2 * kMs);
    }

    // The generated job's gradient buckets are 25 MiB of floats (DDP's default), all-reduced by 4 ranks.
    void generatedJob() {
        QTemporaryDir dir;
        synth::SyntheticJobOptions o;
        o.ranks = 4;
        o.rank.steps = 4;
        test::ImportedSession s(synth::generateJob(o, dir.path().toStdString()).files);
        const Report report = s.report();
        QCOMPARE(report.runs.size(), size_t(4));
        for (const RunReport &r : report.runs) {
            const CollectiveStat *ar = find(r.analysis, "all_reduce");
            QVERIFY(ar && ar->groupSize == 4 && ar->sized == ar->count && ar->count > 0);
            QCOMPARE(ar->bytes, double(ar->count) * 25 * 1024 * 1024);
            int64_t kernelNs = 0;
            for (const OpStat &op : r.analysis.ops)
                if (!op.host() && op.name.starts_with("ncclDevKernel_AllReduce")) kernelNs += op.totalNs;
            QCOMPARE(ar->timeNs, kernelNs);
            QVERIFY(std::abs(*ar->busbwGbps - ar->bytes / double(kernelNs) * 1.5) < 1e-9 * *ar->busbwGbps);
            QVERIFY(!hasFinding(r.analysis, "slow_collective"));  // overlapped with the backward pass
        }
    }

    void exposedSlowAllReduceIsAFinding() {
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 6;
        o.gpus = 2;
        o.bottleneck = synth::Bottleneck::Collective;
        const std::filesystem::path file = dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(file, {});
        test::ImportedSession s({file});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        const CollectiveStat *ar = find(a, "all_reduce");
        QVERIFY(ar && ar->exposedNs > ar->timeNs / 2);
        QVERIFY(hasFinding(a, "slow_collective"));
    }

    void singleGpuRecordingClaimsNothing() {
        test::ImportedSession s({test::testData("gpu-efficiency/collectives.pt.trace.json.gz")});
        const RunAnalysis a = s.report().runs.at(0).analysis;
        QVERIFY(a.collectives.empty());
        QVERIFY(!hasFinding(a, "slow_collective"));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveStats)
#include "tst_collective_stats.moc"

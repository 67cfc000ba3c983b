// Nsight Systems' expert rules and the kernel launch statistics (issue #32, item 5) on generated
// loops with known causes: the healthy loop gets none of the findings; the h2d loop (pageable copies
// that block the host) gets pageable_memcpy and sync_memcpy, from the Kineto trace and the Nsight
// export alike; the checkpoint loop gets gpu_starvation; the loop whose callback reads values with
// .item() gets sync_api; the launch-bound loop's short kernels stand far above the healthy loop's;
// a loop replayed as CUDA graphs has every kernel attributed to its graph launch.
#include "app/synth/nsys_export_writer.h"
#include "app/synth/synthetic_profile_generator.h"
#include "tests/analysis/import_helper.h"

#include <QtTest>

#include <fstream>
#include <set>

using namespace stepscope;

namespace {

const std::set<std::string> kExpertRules{"pageable_memcpy", "sync_memcpy", "sync_memset", "sync_api", "gpu_starvation", "launch_bound"};

struct Generated {
    QTemporaryDir dir;
    Report report;
    std::unique_ptr<test::ImportedSession> session;
    const RunAnalysis &analysis() const { return report.runs.at(0).analysis; }
    std::set<std::string> expertFindings() const {
        std::set<std::string> out;
        for (const Finding &f : analysis().findings)
            if (kExpertRules.count(f.rule)) out.insert(f.rule);
        return out;
    }
};

std::unique_ptr<Generated> generate(synth::Bottleneck b, bool nsys = false, bool phasesSync = false, bool graphs = false) {
    auto g = std::make_unique<Generated>();
    synth::SyntheticProfileOptions o;
    o.steps = 20;
    o.seed = 11;
    o.bottleneck = b;
    o.phasesSync = phasesSync;
    o.cudaGraphs = graphs;
    std::filesystem::path file = g->dir.filePath("t.pt.trace.json.gz").toStdString();
    if (nsys) {
        file = g->dir.filePath("t.sqlite").toStdString();
        synth::writeNsysExport(o, file);
    } else {
        synth::SyntheticProfileGenerator(o).generate(file, {});
    }
    g->session = std::make_unique<test::ImportedSession>(std::vector<std::filesystem::path>{file});
    g->report = g->session->report();
    return g;
}

std::string joined(const std::set<std::string> &s) {
    std::string out;
    for (const std::string &x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
}

} // namespace

class TestExpertRules : public QObject {
    Q_OBJECT
private slots:
    void healthyLoopGetsNone() {
        const auto healthy = generate(synth::Bottleneck::None);
        QVERIFY2(healthy->expertFindings().empty(), joined(healthy->expertFindings()).c_str());
        const auto &k = healthy->analysis().kernels;
        QVERIFY(k && k->count == 20 * 178);
        QVERIFY2(k->shortPct < 5, qPrintable(QString::number(k->shortPct)));
        QVERIFY(k->launchDelayP50Us && *k->launchDelayP95Us >= *k->launchDelayP50Us);
        QVERIFY(!k->queueDepthMax.empty() && k->queueDepthMax.front().maxDepth > 0);
    }

    void pageableBlockingCopies_data() {
        QTest::addColumn<bool>("nsys");
        QTest::newRow("Kineto trace") << false;
        QTest::newRow("Nsight Systems export") << true;
    }
    void pageableBlockingCopies() {
        QFETCH(bool, nsys);
        const auto h2d = generate(synth::Bottleneck::H2D, nsys);
        const std::set<std::string> found = h2d->expertFindings();
        QVERIFY2(found.count("pageable_memcpy") && found.count("sync_memcpy"), joined(found).c_str());
        for (const Finding &f : h2d->analysis().findings)
            if (f.rule == "pageable_memcpy") {
                QVERIFY(!f.steps.empty() && f.endNs > f.startNs);  // evidence
                QVERIFY(f.projection);                              // what pinned copies are worth
            }
    }

    void checkpointStarvesTheGpu() {
        const auto checkpoint = generate(synth::Bottleneck::Checkpoint);
        QVERIFY2(checkpoint->expertFindings().count("gpu_starvation"), joined(checkpoint->expertFindings()).c_str());
    }

    void syncingCallbackLeavesTheGpuIdle() {
        const auto callback = generate(synth::Bottleneck::Callback, false, true);
        QVERIFY2(callback->expertFindings().count("sync_api"), joined(callback->expertFindings()).c_str());
    }

    void launchBoundLoopHasShortKernels() {
        const auto healthy = generate(synth::Bottleneck::None);
        const auto launch = generate(synth::Bottleneck::KernelLaunch);
        QVERIFY(launch->analysis().kernels);
        QVERIFY2(launch->analysis().kernels->shortPct > 90 && healthy->analysis().kernels->shortPct < 5,
                 qPrintable(QString("%1 vs %2").arg(launch->analysis().kernels->shortPct).arg(healthy->analysis().kernels->shortPct)));
        QVERIFY2(launch->expertFindings().count("launch_bound"), joined(launch->expertFindings()).c_str());
    }

    // A step's kernels replayed from one graph launch are its launches: each step has them all, the
    // GPU is as busy as without graphs, and the host spends almost nothing launching.
    void graphLaunchesOwnTheirKernels_data() {
        QTest::addColumn<bool>("nsys");
        QTest::newRow("Kineto trace") << false;
        QTest::newRow("Nsight Systems export") << true;
    }
    void graphLaunchesOwnTheirKernels() {
        QFETCH(bool, nsys);
        const auto graphs = generate(synth::Bottleneck::None, nsys, false, true);
        const RunAnalysis &a = graphs->analysis();
        for (const AnalysisStep &s : a.steps.steps) QVERIFY2(s.gpuOps >= 178, qPrintable(QString::number(s.gpuOps)));
        QVERIFY2(a.gpuBusyPct > 90, qPrintable(QString::number(a.gpuBusyPct)));
        QVERIFY2(a.categoryPct(Category::KernelLaunch) < 1, qPrintable(QString::number(a.categoryPct(Category::KernelLaunch))));
        QVERIFY(a.kernels && a.kernels->count == 20 * 178);
        QVERIFY2(graphs->expertFindings().empty(), joined(graphs->expertFindings()).c_str());
    }

    void memsetsThatBlock() {
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("memset.json").toStdString();
        std::ofstream(file) << R"({"schemaVersion":1,"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":1000},
 {"ph":"X","name":"cudaLaunchKernel","cat":"cuda_runtime","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},
 {"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":20,"dur":900,"args":{"correlation":1,"device":0,"stream":7}},
 {"ph":"X","name":"cudaMemset","cat":"cuda_runtime","pid":1,"tid":1,"ts":20,"dur":100}]})";
        test::ImportedSession s({file});
        const Report r = s.report();
        bool memset = false;
        for (const Finding &f : r.runs.at(0).analysis.findings) memset = memset || f.rule == "sync_memset";
        QVERIFY(memset);
    }
};

QTEST_GUILESS_MAIN(TestExpertRules)
#include "tst_expert_rules.moc"

// What fixing a cause is worth, on hand-built traces whose answer is known: the step as it would run
// without the cause, re-timed along its launches, streams and syncs (StepProjector, ProjectionRules).

#include "models/analysis/rules/projection_rules.h"
#include "models/analysis/report/report_formatter.h"
#include "models/analysis/engine/step_projection.h"
#include "tests/analysis/analysis_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace stepscope;
using stepscope::test::AnalysisFixture;
using stepscope::test::kMs;
using stepscope::test::kUs;

namespace {

// One host thread launching kernels onto one stream: each launch call takes 50 us, its kernel starts
// 50 us after the call began or when the stream is free, whichever is later.
struct Launcher {
    AnalysisFixture &f;
    int64_t thread, stream;
    int64_t &nextCorrelation;
    int64_t streamFree = 0;

    // Launches a kernel of `durMs` at `t`; returns the kernel's end.
    int64_t launch(int64_t t, int64_t durMs) {
        const int64_t c = nextCorrelation++;
        f.slice(thread, "cudaLaunchKernel", "cuda_runtime", t, t + 50 * kUs, c);
        const int64_t start = std::max(t + 50 * kUs, streamFree);
        f.slice(stream, "gemm", "kernel", start, start + durMs * kMs, c);
        return streamFree = start + durMs * kMs;
    }
    // A blocking sync from `t` until the stream is done, plus 50 us.
    int64_t sync(int64_t t) {
        const int64_t end = std::max(t, streamFree) + 50 * kUs;
        f.slice(thread, "cudaDeviceSynchronize", "cuda_runtime", t, end);
        return end;
    }
};

const Finding *finding(const RunAnalysis &a, const std::string &rule) {
    for (const Finding &f : a.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

} // namespace

class TestAnalysisProjection : public QObject {
    Q_OBJECT
private slots:
    // Input fully serial: 60 ms DataLoader wait, then 4 kernels of 10 ms, then a sync. Without the
    // wait the step is the GPU's 40 ms plus launch latency and the sync's overhead: 40.1 ms.
    void serialInputProjectsToTheGpuWork() {
        AnalysisFixture f;
        int64_t corr = 1;
        Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
        int64_t t = 0;
        for (int k = 1; k <= 10; ++k) {
            const int64_t t0 = t;
            f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", t0, t0 + 60 * kMs);
            int64_t at = t0 + 60 * kMs;
            for (int i = 0; i < 4; ++i, at += 100 * kUs) l.launch(at, 10);
            t = l.sync(at);
            f.step(k, t0, t);
        }
        const RunAnalysis a = [&] { AnalysisOptions o; o.batchSize = 32; return f.analyze(o); }();
        QCOMPARE(a.bottleneck, std::string("input"));
        QVERIFY(a.projection);
        QCOMPARE(a.projection->category, std::string("input"));
        QCOMPARE(a.projection->method, std::string("replay"));
        QCOMPARE(a.projection->currentStepTimeMs, 100.1);  // 60 + 0.05 latency + 4 x 10 + 0.05 sync
        QCOMPARE(a.projection->stepTimeMs, 40.1);
        QCOMPARE(a.projection->speedup, 100.1 / 40.1);
        QVERIFY(a.projection->samplesPerSecond);
        QCOMPARE(*a.projection->samplesPerSecond, 32 / 0.0401);
        const Finding *dl = finding(a, "pt_dataloader");
        QVERIFY(dl && dl->projection);
        QCOMPARE(dl->projection->stepTimeMs, 40.1);
        // The exposed method agrees here: every ns of the wait was exposed.
        const std::vector<int64_t> exposed = ProjectionRules::summarize(a, "input", "exposed",
            StepProjector(a, {}, {}).projectExposed({Category::Input})).perStepNs;
        QCOMPARE(exposed.front(), int64_t(40'100'000));
    }

    // Partly overlapped: the kernels are launched first (40 ms of GPU work) and the wait for the next
    // batch (60 ms) runs meanwhile; only its last 20.35 ms are exposed, and the projection is 40.1 ms.
    void partlyOverlappedInputGainsOnlyTheExposedPart() {
        AnalysisFixture f;
        int64_t corr = 1;
        Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
        int64_t t = 0;
        for (int k = 1; k <= 10; ++k) {
            const int64_t t0 = t;
            int64_t at = t0;
            for (int i = 0; i < 4; ++i, at += 100 * kUs) l.launch(at, 10);
            f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", at, at + 60 * kMs);
            t = l.sync(at + 60 * kMs);
            f.step(k, t0, t);
        }
        const RunAnalysis a = f.analyze();
        QVERIFY(a.projection);
        QCOMPARE(a.projection->category, std::string("input"));
        QCOMPARE(a.projection->currentStepTimeMs, 60.45);
        QCOMPARE(a.projection->stepTimeMs, 40.1);
        QVERIFY(!a.projection->samplesPerSecond);  // no batch size: no throughput, never invented
    }

    // A callback after the GPU finished is pure loss; one that runs while the GPU is busy costs nothing,
    // and removing it cannot make the step shorter than the GPU's own work.
    void callbackAfterTheGpuFinishedVersusDuringIt() {
        for (const bool during : {false, true}) {
            AnalysisFixture f;
            int64_t corr = 1;
            Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
            int64_t t = 0;
            for (int k = 1; k <= 10; ++k) {
                const int64_t t0 = t;
                int64_t at = t0;
                for (int i = 0; i < 4; ++i, at += 100 * kUs) l.launch(at, during ? 20 : 10);
                if (during) {
                    f.slice(f.host, "on_train_batch_end", "user_annotation", at, at + 30 * kMs);
                    t = l.sync(at + 30 * kMs);
                } else {
                    const int64_t synced = l.sync(at);
                    f.slice(f.host, "on_train_batch_end", "user_annotation", synced, synced + 30 * kMs);
                    t = synced + 30 * kMs;
                }
                f.step(k, t0, t);
            }
            const RunAnalysis a = f.analyze();
            std::string method;
            const TraceData trace = TraceLoader(f.store()).load(SessionReader(f.store()).runs().front());
            const std::vector<int64_t> per = StepProjector(a, trace, trace.classify(*CategoryRules::load().preset("stepscope")))
                                                 .project({Category::Callback}, method);
            QCOMPARE(method, std::string("replay"));
            QCOMPARE(per.size(), size_t(10));
            for (size_t k = 0; k < per.size(); ++k) {
                if (during) QCOMPARE(per[k], a.steps.steps[k].dur());  // 80.1 ms of GPU work stays
                else QCOMPARE(per[k], int64_t(40'100'000));
            }
            if (!during) {
                const Finding *cb = finding(a, "callback_bound");
                QVERIFY(cb && cb->projection);
                QCOMPARE(cb->projection->stepTimeMs, 40.1);
            }
        }
    }

    // A callback that launches its own GPU work and waits for it: fixing the callback removes that
    // work too, which the exposed time alone (the callback minus its kernel) would not show.
    void callbackTakesItsOwnGpuWorkWithIt() {
        AnalysisFixture f;
        int64_t corr = 1;
        Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
        int64_t t = 0;
        for (int k = 1; k <= 10; ++k) {
            const int64_t t0 = t;
            int64_t at = t0;
            for (int i = 0; i < 4; ++i, at += 100 * kUs) l.launch(at, 10);
            const int64_t synced = l.sync(at);
            l.launch(synced, 5);  // a metric kernel inside the callback, then .item()
            const int64_t cbEnd = l.sync(synced + 100 * kUs) + 10 * kMs;
            f.slice(f.host, "on_train_batch_end", "user_annotation", synced, cbEnd);
            t = cbEnd;
            f.step(k, t0, t);
        }
        const RunAnalysis a = f.analyze();
        const Finding *cb = finding(a, "callback_bound");
        QVERIFY(cb && cb->projection);
        QCOMPARE(cb->projection->method, std::string("replay"));
        QCOMPARE(cb->projection->stepTimeMs, 40.1);
    }

    // A checkpoint every 10th step: the projection is the mean over all steps without it.
    void periodicCheckpointProjectsOnTheMean() {
        AnalysisFixture f;
        int64_t corr = 1;
        Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
        int64_t t = 0;
        for (int k = 1; k <= 20; ++k) {
            const int64_t t0 = t;
            int64_t at = t0;
            for (int i = 0; i < 4; ++i, at += 100 * kUs) l.launch(at, 10);
            t = l.sync(at);
            if (k % 10 == 0) {
                f.slice(f.host, "torch.save", "user_annotation", t, t + 200 * kMs);
                t += 200 * kMs;
            }
            f.step(k, t0, t);
        }
        const RunAnalysis a = f.analyze();
        QCOMPARE(a.bottleneck, std::string("checkpoint"));
        QVERIFY(a.projection);
        QCOMPARE(a.projection->currentStepTimeMs, 60.1);  // (20 x 40.1 + 2 x 200) / 20
        QCOMPARE(a.projection->stepTimeMs, 40.1);
        const Finding *slow = finding(a, "outlier_steps");
        QVERIFY(slow && slow->projection);
        QCOMPARE(slow->projection->method, std::string("outlier_steps_at_median"));
        QCOMPARE(slow->projection->stepTimeMs, 40.1);
    }

    // PyTorch runs backward on its own thread, which the main thread wakes: kernels launched there
    // move earlier with the main thread when the input wait before them goes.
    void backwardThreadMovesWithTheMainThread() {
        AnalysisFixture f;
        int64_t corr = 1;
        const int64_t stream = f.stream(0, "stream 7");
        Launcher main{f, f.host, stream, corr};
        Launcher backward{f, f.thread("pt_autograd_0"), stream, corr};
        int64_t t = 0;
        for (int k = 1; k <= 10; ++k) {
            const int64_t t0 = t;
            f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", t0, t0 + 50 * kMs);
            main.launch(t0 + 50 * kMs, 10);
            backward.streamFree = main.streamFree;
            backward.launch(t0 + 50 * kMs + 200 * kUs, 10);
            main.streamFree = backward.streamFree;
            t = main.sync(t0 + 50 * kMs + 300 * kUs);
            f.step(k, t0, t);
        }
        const RunAnalysis a = f.analyze();
        QVERIFY(a.projection);
        QCOMPARE(a.projection->method, std::string("replay"));
        QCOMPARE(a.projection->currentStepTimeMs, 70.1);
        QCOMPARE(a.projection->stepTimeMs, 20.1);
    }

    // Without the cause the projection is the step itself, to the nanosecond; a finding that names a
    // symptom (low GPU utilization) carries no projection, and the JSON says null for it.
    void nothingRemovedMeansNothingGained() {
        AnalysisFixture f;
        int64_t corr = 1;
        Launcher l{f, f.host, f.stream(0, "stream 7"), corr};
        int64_t t = 0;
        for (int k = 1; k <= 5; ++k) {
            const int64_t t0 = t;
            f.slice(f.host, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", t0, t0 + 80 * kMs);
            l.launch(t0 + 80 * kMs, 10);
            t = l.sync(t0 + 80 * kMs + 100 * kUs);
            f.step(k, t0, t);
        }
        const RunAnalysis a = f.analyze();
        const TraceData trace = TraceLoader(f.store()).load(SessionReader(f.store()).runs().front());
        std::string method;
        const std::vector<int64_t> per = StepProjector(a, trace, trace.classify(*CategoryRules::load().preset("stepscope")))
                                             .project({Category::Checkpoint}, method);
        for (size_t k = 0; k < per.size(); ++k) QCOMPARE(per[k], a.steps.steps[k].dur());
        const Finding *low = finding(a, "pt_low_gpu_utilization");
        QVERIFY(low);
        QVERIFY(!low->projection);
        Report r;
        RunReport rr;
        rr.analysis = a;
        r.runs.push_back(rr);
        const QJsonArray findings = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r)))
                                        .object()["runs"].toArray()[0].toObject()["findings"].toArray();
        bool sawNull = false, sawInput = false;
        for (const QJsonValue &v : findings) {
            const QJsonObject o = v.toObject();
            if (o["rule"] == "pt_low_gpu_utilization") sawNull = o["projection"].isNull();
            if (o["rule"] == "pt_dataloader") {
                sawInput = true;
                QCOMPARE(o["projection"].toObject()["category"].toString(), QString("input"));
                QVERIFY(o["projection"].toObject()["samples_per_s"].isNull());
                QCOMPARE(o["projection"].toObject()["step_time_ms"].toDouble(), 10.1);
            }
        }
        QVERIFY(sawNull && sawInput);
        QCOMPARE(describeProjection(*a.projection), std::string("input: step 90.1 \u2192 10.1 ms, 8.92\u00d7 samples/s"));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisProjection)
#include "tst_analysis_projection.moc"

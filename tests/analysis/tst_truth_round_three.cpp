// Truth, round three (issue #32): categories that match what happened (no kernel launches without a
// GPU; a blocking copy is a copy, a sync a wait, an allocation host work; set-up before the first
// GPU work in no step), advice in the run's own framework, and compare saying "reduced".
#include "models/analysis/report/run_comparison.h"
#include "tests/analysis/import_helper.h"

#include <QtTest>

#include <fstream>

using namespace stepscope;

namespace {

struct Analysed {
    QTemporaryDir dir;
    Report report;
    const RunAnalysis &analysis() const { return report.runs.at(0).analysis; }
};

std::unique_ptr<Analysed> analyse(const std::string &json, const std::string &name = "t.json") {
    auto out = std::make_unique<Analysed>();
    const std::filesystem::path file = out->dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(file) << json;
    test::ImportedSession s({file});
    out->report = s.report();
    return out;
}

const Finding *finding(const RunAnalysis &a, const std::string &rule) {
    for (const Finding &f : a.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

// A loop whose steps spend half their time in `inputName` and the rest in host work; `header` (keys
// before traceEvents) and `metadata` (first events) say which framework wrote it.
std::string inputBoundTrace(const std::string &header, const std::string &inputName, const std::string &metadata = "") {
    std::string events = metadata;
    for (int k = 0; k < 4; ++k) {
        const int t = k * 1000;
        events += R"({"ph":"X","name":"ProfilerStep#)" + std::to_string(k) + R"(","cat":"user_annotation","pid":1,"tid":1,"ts":)" +
                  std::to_string(t) + R"(,"dur":1000},)";
        events += R"({"ph":"X","name":")" + inputName + R"(","cat":"user_annotation","pid":1,"tid":1,"ts":)" + std::to_string(t) +
                  R"(,"dur":500},)";
        events += R"({"ph":"X","name":"work","cat":"cpu_op","pid":1,"tid":1,"ts":)" + std::to_string(t + 500) + R"(,"dur":500},)";
    }
    events.pop_back();
    return "{" + header + R"("traceEvents":[)" + events + "]}";
}

} // namespace

class TestTruthRoundThree : public QObject {
    Q_OBJECT
private slots:
    // A CPU-only TensorFlow run: its executor's ops launch nothing, so nothing is kernel launch.
    void noKernelLaunchWithoutAGpu() {
        std::string events = R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"/host:CPU"}},)";
        for (int k = 0; k < 3; ++k) {
            const int t = k * 1000;
            events += R"({"ph":"X","name":"ProfilerStep#)" + std::to_string(k) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(t) + R"(,"dur":1000},)";
            events += R"({"ph":"X","name":"ExecutorState::Process","pid":1,"tid":1,"ts":)" + std::to_string(t) + R"(,"dur":600},)";
        }
        events.pop_back();
        const auto run = analyse(R"({"traceEvents":[)" + events + "]}");
        const RunAnalysis &a = run->analysis();
        QCOMPARE(run->report.runs[0].run.framework, std::string("tensorflow"));
        QVERIFY(!a.gpuTraced);
        QCOMPARE(a.categoryPct(Category::KernelLaunch), 0.0);
        QVERIFY2(a.categoryPct(Category::HostCompute) > 59, qPrintable(QString::number(a.categoryPct(Category::HostCompute))));
        QVERIFY(!finding(a, "tf_kernel_launch"));
    }

    // Nsight-style runtime calls: an allocation, a blocking copy, a launch and a device sync.
    void runtimeCallsAreWhatTheyDo() {
        const auto run = analyse("{\"schemaVersion\":1,\"traceEvents\":[\n"
" {\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"cat\":\"user_annotation\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000},\n"
" {\"ph\":\"X\",\"name\":\"cudaMalloc\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
" {\"ph\":\"X\",\"name\":\"cudaMemcpy\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":300,\"args\":{\"correlation\":5}},\n"
" {\"ph\":\"X\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"cat\":\"gpu_memcpy\",\"pid\":0,\"tid\":7,\"ts\":350,\"dur\":50,\"args\":{\"correlation\":5,\"device\":0,\"stream\":7}},\n"
" {\"ph\":\"X\",\"name\":\"cudaLaunchKernel\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,\"ts\":400,\"dur\":10,\"args\":{\"correlation\":6}},\n"
" {\"ph\":\"X\",\"name\":\"gemm\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":420,\"dur\":100,\"args\":{\"correlation\":6,\"device\":0,\"stream\":7}},\n"
" {\"ph\":\"X\",\"name\":\"cudaDeviceSynchronize\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,\"ts\":410,\"dur\":190},\n"
" {\"ph\":\"X\",\"name\":\"aten::add\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":1,\"ts\":600,\"dur\":400}]}");
        const RunAnalysis &a = run->analysis();
        QVERIFY2(a.categoryPct(Category::KernelLaunch) < 2, qPrintable(QString::number(a.categoryPct(Category::KernelLaunch))));
        // The blocking copy's 300 us (250 of them waiting for its copy to start) are host-to-device copying.
        QVERIFY2(std::abs(a.categoryPct(Category::H2D) - 30) < 0.5, qPrintable(QString::number(a.categoryPct(Category::H2D))));
        // The allocation is host work, with the op after the sync.
        QVERIFY2(std::abs(a.categoryPct(Category::HostCompute) - 50) < 0.5, qPrintable(QString::number(a.categoryPct(Category::HostCompute))));
        // The sync waits: 410-420 and 520-600 us, where no kernel runs, are other; 420-520 is the kernel's.
        QVERIFY2(std::abs(a.categoryPct(Category::Other) - 9) < 0.5, qPrintable(QString::number(a.categoryPct(Category::Other))));
    }

    // Without step markers the one step starts at the first GPU work: MPI_Init and cudaMalloc before
    // it belong to no step.
    void setUpBeforeTheFirstGpuWorkIsInNoStep() {
        const auto run = analyse(R"({"traceEvents":[
 {"ph":"X","name":"MPI_Init","pid":1,"tid":1,"ts":0,"dur":5000},
 {"ph":"X","name":"cudaMalloc","cat":"cuda_runtime","pid":1,"tid":1,"ts":5000,"dur":900},
 {"ph":"X","name":"cudaLaunchKernel","cat":"cuda_runtime","pid":1,"tid":1,"ts":6000,"dur":10,"args":{"correlation":1}},
 {"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":6020,"dur":980,"args":{"correlation":1,"device":0,"stream":7}}]})");
        const RunAnalysis &a = run->analysis();
        QCOMPARE(a.steps.source, StepSource::WholeTrace);
        QCOMPARE(a.steps.steps.size(), size_t(1));
        QCOMPARE(a.steps.steps[0].dur(), int64_t(1000000));
        QVERIFY2(a.gpuBusyPct > 97, qPrintable(QString::number(a.gpuBusyPct)));
    }

    void adviceInTheRunsFramework() {
        // PyTorch (Kineto's keys) with its DataLoader.
        const auto pt = analyse(inputBoundTrace(R"("schemaVersion":1,)", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        const Finding *ptInput = finding(pt->analysis(), "tf_input_bound");
        QVERIFY(ptInput);
        QVERIFY2(ptInput->recommendation.find("DataLoader") != std::string::npos &&
                     ptInput->recommendation.find("tf.data") == std::string::npos, ptInput->recommendation.c_str());
        QVERIFY(finding(pt->analysis(), "pt_dataloader"));
        // TensorFlow (its /host:CPU process) waiting in IteratorGetNext.
        const auto tf = analyse(inputBoundTrace("", "IteratorGetNext",
                                                R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"/host:CPU"}},)"));
        QCOMPARE(tf->report.runs[0].run.framework, std::string("tensorflow"));
        const Finding *tfInput = finding(tf->analysis(), "tf_input_bound");
        QVERIFY(tfInput);
        QVERIFY2(tfInput->recommendation.find("tf.data") != std::string::npos &&
                     tfInput->recommendation.find("DataLoader") == std::string::npos, tfInput->recommendation.c_str());
        QVERIFY(!finding(tf->analysis(), "pt_dataloader"));  // the PyTorch plugin's rule is not TensorFlow's
        // A run of unknown framework: both, and the PyTorch rule says whose it is.
        const auto unknown = analyse(inputBoundTrace("", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
        QCOMPARE(unknown->report.runs[0].run.framework, std::string());
        const Finding *borrowed = finding(unknown->analysis(), "pt_dataloader");
        QVERIFY(borrowed);
        QVERIFY2(borrowed->title.ends_with("(PyTorch profiler plugin rule)"), borrowed->title.c_str());
        const Finding *both = finding(unknown->analysis(), "tf_input_bound");
        QVERIFY(both && both->recommendation.find("PyTorch: ") == 0 && both->recommendation.find("TensorFlow: ") != std::string::npos);
    }

    // A TF 2 Keras step without markers: the eager wrapper (120 ms) around the executor's run of the
    // function (FunctionRun, 85 ms, 52 ms of it waiting in IteratorGetNext). TensorFlow's step is the
    // FunctionRun: 61 % input; the wrapper's 35 ms lie between steps.
    void tensorflowStepsFollowFunctionRun() {
        std::string events = R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"/host:CPU"}},)";
        for (int k = 0; k < 3; ++k) {
            const std::string t = std::to_string(k * 120000);
            auto at = [&](int offset) { return std::to_string(k * 120000 + offset); };
            events += R"({"ph":"X","name":"EagerExecute: __inference_train_function_1234","pid":1,"tid":1,"ts":)" + t + R"(,"dur":120000},)";
            events += R"({"ph":"X","name":"FunctionRun","pid":1,"tid":2,"ts":)" + at(30000) + R"(,"dur":85000},)";
            events += R"({"ph":"X","name":"IteratorGetNext","pid":1,"tid":2,"ts":)" + at(30000) + R"(,"dur":52000},)";
            events += R"({"ph":"X","name":"MatMul","pid":1,"tid":2,"ts":)" + at(82000) + R"(,"dur":33000},)";
        }
        events.pop_back();
        const auto run = analyse(R"({"traceEvents":[)" + events + "]}");
        const RunAnalysis &a = run->analysis();
        QCOMPARE(a.steps.source, StepSource::TfTrainFunction);
        QCOMPARE(a.steps.steps.size(), size_t(3));
        for (const AnalysisStep &st : a.steps.steps) QCOMPARE(st.dur(), int64_t(85000000));
        QCOMPARE(a.steps.meanBetweenStepsNs(), 35e6);  // the wrapper's own time, between the steps
        QVERIFY2(std::abs(a.categoryPct(Category::Input) - 61.18) < 0.1, qPrintable(QString::number(a.categoryPct(Category::Input))));
        const Finding *input = finding(a, "tf_input_bound");
        QVERIFY(input && input->severity == FindingSeverity::High);
    }

    void compareSaysReduced() {
        RunReport base, next;
        base.analysis.findings.push_back({"tf_input_bound", FindingSeverity::High, "Highly input-bound", "", "", {}, 0, 0});
        base.analysis.findings.push_back({"gpu_idle", FindingSeverity::Medium, "GPU idle", "", "", {}, 0, 0});
        base.analysis.findings.push_back({"callback_bound", FindingSeverity::Medium, "Slow callbacks", "", "", {}, 0, 0});
        next.analysis.findings.push_back({"tf_input_bound", FindingSeverity::Low, "Potentially input-bound", "", "", {}, 0, 0});
        next.analysis.findings.push_back({"gpu_idle", FindingSeverity::Medium, "GPU idle", "", "", {}, 0, 0});
        const RunComparison c = RunComparison::compare(base, "a", next, "b");
        QCOMPARE(c.resolved, std::vector<std::string>({"callback_bound"}));
        QCOMPARE(c.kept, std::vector<std::string>({"gpu_idle"}));
        QCOMPARE(c.reduced.size(), size_t(1));
        QCOMPARE(c.reduced[0].text(), std::string("tf_input_bound (high \u2192 low)"));
    }
};

QTEST_GUILESS_MAIN(TestTruthRoundThree)
#include "tst_truth_round_three.moc"

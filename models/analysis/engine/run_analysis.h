#pragma once
// RunAnalyzer is the analysis engine's entry point, callable without a GUI: for one run it loads the
// trace (TraceLoader) and its metrics, moves the steps onto device time (StepTimeline), computes the
// step-time breakdown (StepBreakdownAnalyzer, stepscope preset plus an optional TF/PyTorch preset),
// GPU busy %, idle gaps (GpuGapAnalyzer), op statistics (OpStatsAnalyzer), the bottleneck
// (BottleneckRules), the findings (FindingRules, MetricRules), the GPU memory headroom for the batch
// (MemoryHeadroom) and what fixing each finding is worth (ProjectionRules); without a given batch
// size it detects one from recorded input shapes (BatchSizeDetector); other profilers' verdicts found
// beside the trace go next to its own (CrossChecks). ReportBuilder and the views call it.

#include "models/analysis/engine/category.h"
#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/collective_stats.h"
#include "models/analysis/engine/critical_path.h"
#include "models/analysis/engine/first_collective.h"
#include "models/analysis/engine/gpu_gap_analyzer.h"
#include "models/analysis/engine/metric_data.h"
#include "models/analysis/engine/op_stats_analyzer.h"
#include "models/analysis/engine/step_breakdown_analyzer.h"
#include "models/analysis/engine/step_timeline.h"
#include "models/analysis/engine/tf_data_pipeline.h"
#include "models/concurrency/cancel_token.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

// What removing one cause is worth (ProjectionRules, StepProjector): the mean step time without it.
struct Projection {
    std::string category;  // the cause: a category name ("input", "input+h2d", ...) or "outlier_steps"
    double currentStepTimeMs = 0, stepTimeMs = 0;  // mean step time now, and projected
    double speedup = 1;                            // current / projected
    std::optional<double> currentSamplesPerSecond, samplesPerSecond;  // with a known batch size
    std::string method;              // replay, exposed or outlier_steps_at_median (step_projection.h)
    std::vector<int64_t> perStepNs;  // projected duration of each step of RunAnalysis::steps
};

// GPU memory over the analysed steps and the batch it leaves room for (MemoryHeadroom).
struct MemorySummary {
    std::string source;                       // allocator (gpu_mem_allocated) or nvidia_smi (gpu_mem_used)
    int device = 0;                           // the tightest GPU
    std::optional<int64_t> deviceTotalBytes;  // the device's size, when a series gives it
    int64_t staticBytes = 0, peakBytes = 0;   // least at a step boundary, most inside a step
    std::optional<int64_t> peakReservedBytes; // the allocator's reserve at most (allocator only)
    double fragmentationPct = 0;              // reserved / allocated at the peak − 1, in %
    double safetyMarginPct = 0;               // of the device total kept free
    std::optional<int64_t> outsideBytes;      // held outside the allocator (nvidia-smi used − reserved)
    std::optional<int64_t> batchSize, maxBatchSize;
    std::string note;                         // why a figure is absent (empty when all are there)
    std::vector<std::optional<int64_t>> perStepPeakBytes;  // per step of RunAnalysis::steps
    int64_t perStepBytes() const { return peakBytes - staticBytes; }
};

// How much a finding matters; `info` says a cause is absent ("Not input-bound").
enum class FindingSeverity { Info, Low, Medium, High };
const char *findingSeverityName(FindingSeverity severity);  // info, low, medium, high (report JSON)

struct Finding {
    std::string rule;      // e.g. tf_input_bound, pt_dataloader, sm_low_gpu_utilization, outlier_steps
    FindingSeverity severity = FindingSeverity::Info;
    std::string title, detail, recommendation;
    std::vector<int64_t> steps;  // evidence: step numbers
    int64_t startNs = 0, endNs = 0;  // evidence: time range (absolute ns); 0/0 when none
    std::optional<Projection> projection = std::nullopt;  // what fixing it is worth, where it can be said
};

// Another profiler's verdict on the run beside Stepscope's (CrossChecks; report `runs[].cross_checks`).
struct CrossCheck {
    std::string tool;  // tensorflow_profiler
    std::string kind;  // overview_page, input_pipeline, tensorflow_stats, kernel_stats
    std::string file;
    std::optional<double> inputPct;  // the tool's input-bound %
    std::string verdict, deviceType;
    std::string topOpsJson;          // [{"name","category","self_pct"}]
    double stepscopeInputPct = 0;    // input + h2d
    std::optional<bool> agree;       // within CrossChecks::kAgreePoints; none without the tool's figure
};

struct OutlierStep {
    int64_t step = 0, durNs = 0;
    std::string cause;  // checkpoint, evaluation, summary_writing, gc, or a category name
};

struct AnalysisOptions {
    std::optional<int64_t> firstStep, lastStep;
    std::optional<int64_t> batchSize;
    std::string batchSizeSource = "cli";  // where batchSize came from: cli or session
    bool detectBatchSize = true;           // without batchSize: detect it from recorded input shapes
    std::string preset;  // extra breakdown preset (tensorflow, pytorch); empty: none
};

// HTA's kernel launch statistics over the analysed steps (ExpertRules; report `summary.kernels`).
struct StreamQueueDepth {
    std::string stream;
    int device = 0;
    int64_t maxDepth = 0;  // kernels launched (their call ended) and not yet started, at most
};
struct KernelStats {
    int64_t count = 0;
    double medianUs = 0;
    double shortPct = 0;  // share of kernels shorter than the short-kernel threshold (10 us)
    std::optional<double> launchDelayP50Us, launchDelayP95Us;  // launch call end -> kernel start
    std::vector<StreamQueueDepth> queueDepthMax;
};

struct RunAnalysis {
    StepTimeline steps;
    Breakdown breakdown;                  // stepscope preset
    std::optional<Breakdown> presetBreakdown;
    std::array<int, kCategoryCount> categoryType{};  // category -> breakdown type index (-1: absent)
    double gpuBusyPct = 0;                // time with >= 1 kernel (compute or collective) / step time
    double computeCoveragePct = 0;        // time with >= 1 non-collective kernel / step time
    // The trace has GPU work (streams with events): only then do GPU busy, GPU idle gaps and the GPU
    // findings mean anything. A CPU-only trace is not a trace of an idle GPU.
    bool gpuTraced = false;
    bool gpuMetrics = false;              // GPU utilization samples belong to this run
    std::string bottleneck, bottleneckDetail, bottleneckEvidence;
    double inputTracedBusyFraction = -1;  // share of input-wait time with traced work nested in it
    TfDataSummary tfData;                 // tf.data stages by cost (TfDataPipeline); empty without Iterator:: spans
    std::optional<int64_t> batchSize;     // given, or detected (BatchSizeDetector)
    std::string batchSizeSource;          // cli, session or detected; empty when unknown
    std::string batchSizeEvidence;        // how it was detected
    std::optional<double> samplesPerSecond;
    std::vector<double> samplesPerSecondPerStep;
    GapAnalysis gaps;
    std::vector<OpStat> ops;
    std::vector<OutlierStep> outliers;
    std::vector<Finding> findings;
    std::vector<CrossCheck> crossChecks;  // other profilers' verdicts found beside the trace
    std::optional<Projection> projection;  // for the bottleneck (none when the GPU's compute is the limit)
    std::optional<MemorySummary> memory;   // when the run has GPU memory series (MemoryHeadroom)
    std::vector<StepCollective> firstCollective;  // per step of `steps` (first_collective.h)
    std::optional<KernelStats> kernels;            // when the steps hold kernels (expert_rules.h)
    std::optional<CriticalPath> criticalPath;      // per step of `steps`, when there are steps (critical_path.h)
    std::vector<CollectiveStat> collectives;        // by kind, most time first (collective_stats.h)

    std::optional<double> gpuBusy() const { return gpuTraced ? std::optional<double>(gpuBusyPct) : std::nullopt; }
    // Why GPU figures are absent ("no GPU in this trace", ...); empty when the trace has GPU work.
    std::string gpuNote() const;

    int64_t categoryNs(Category c) const;
    int64_t categoryNs(size_t step, Category c) const;
    double categoryPct(Category c) const;
};

class RunAnalyzer {
public:
    // `metrics`: the session's metric series, when the caller analyses many runs and loads it once
    // (ReportBuilder); without it each analyze() reads metric_series itself.
    RunAnalyzer(const SessionStore &store, const CategoryRules &rules, const MetricCatalog *metrics = nullptr)
        : m_store(store), m_rules(rules), m_metrics(metrics) {}
    // `cancel` (optional, a background job's flag) is polled while the trace is read and between
    // the analyzers; raised, analyze() throws AnalysisCancelled.
    RunAnalysis analyze(const RunRow &run, const AnalysisOptions &options = {}, const CancelToken &cancel = {}) const;

private:
    const SessionStore &m_store;
    const CategoryRules &m_rules;
    const MetricCatalog *m_metrics;
};

} // namespace stepscope

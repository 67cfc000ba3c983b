#include "models/analysis/engine/run_analysis.h"

#include "models/analysis/engine/batch_size_detector.h"
#include "models/analysis/rules/bottleneck_rules.h"
#include "models/analysis/rules/cross_checks.h"
#include "models/analysis/rules/expert_rules.h"
#include "models/analysis/rules/finding_rules.h"
#include "models/analysis/engine/memory_headroom.h"
#include "models/analysis/engine/metric_data.h"
#include "models/analysis/rules/metric_rules.h"
#include "models/analysis/engine/op_efficiency.h"
#include "models/analysis/rules/projection_rules.h"
#include "models/analysis/engine/trace_data.h"

namespace stepscope {

const char *findingSeverityName(FindingSeverity severity) {
    switch (severity) {
    case FindingSeverity::High: return "high";
    case FindingSeverity::Medium: return "medium";
    case FindingSeverity::Low: return "low";
    case FindingSeverity::Info: break;
    }
    return "info";
}

int64_t RunAnalysis::categoryNs(Category c) const {
    const int t = categoryType[size_t(c)];
    return t >= 0 && size_t(t) < breakdown.totalNs.size() ? breakdown.totalNs[size_t(t)] : 0;
}

int64_t RunAnalysis::categoryNs(size_t step, Category c) const {
    const int t = categoryType[size_t(c)];
    return t >= 0 && step < breakdown.perStepNs.size() ? breakdown.perStepNs[step][size_t(t)] : 0;
}

double RunAnalysis::categoryPct(Category c) const {
    return breakdown.stepTotalNs > 0 ? 100.0 * double(categoryNs(c)) / double(breakdown.stepTotalNs) : 0.0;
}

std::string RunAnalysis::gpuNote() const {
    if (gpuTraced) return {};
    return gpuMetrics ? "no GPU activity in this trace (GPU metrics only): GPU busy and GPU idle gaps do not apply"
                      : "no GPU in this trace: GPU busy, GPU idle gaps and GPU findings do not apply";
}

RunAnalysis RunAnalyzer::analyze(const RunRow &run, const AnalysisOptions &options, const CancelToken &cancel) const {
    RunAnalysis ra;
    const Preset *stepscope = m_rules.preset("stepscope");
    const TraceData trace = TraceLoader(m_store, cancel).load(run);
    throwIfCancelled(cancel);
    SessionReader reader(m_store);
    ra.steps = StepTimeline::build(reader.steps(run.id), run.stepSource, trace);
    ra.steps.restrict(options.firstStep, options.lastStep);

    const std::vector<int8_t> types = trace.classify(*stepscope);
    throwIfCancelled(cancel);
    ra.breakdown = StepBreakdownAnalyzer::analyze(trace, types, *stepscope, ra.steps);
    for (int c = 0; c < kCategoryCount; ++c) ra.categoryType[size_t(c)] = ra.breakdown.typeIndex(kCategoryNames[size_t(c)]);
    if (!options.preset.empty() && options.preset != "stepscope") {
        const Preset *p = m_rules.preset(options.preset);
        if (!p) throw std::runtime_error("no preset '" + options.preset + "' in " + m_rules.origin());
        ra.presetBreakdown = StepBreakdownAnalyzer::analyze(trace, trace.classify(*p), *p, ra.steps);
    }

    throwIfCancelled(cancel);
    if (!ra.steps.steps.empty()) ra.criticalPath = CriticalPathAnalyzer::analyze(trace, types, *stepscope, ra.steps);
    throwIfCancelled(cancel);
    ra.firstCollective = firstCollectives(trace, types, ra.categoryType[size_t(Category::Collective)], ra.steps);
    for (const TraceTrack &t : trace.tracks) ra.gpuTraced = ra.gpuTraced || (t.gpu && t.count > 0);
    const int64_t total = ra.steps.totalNs();
    const int dc = ra.categoryType[size_t(Category::DeviceCompute)], co = ra.categoryType[size_t(Category::Collective)];
    if (total > 0 && dc >= 0) {
        const IntervalList &compute = ra.breakdown.unions[size_t(dc)];
        ra.computeCoveragePct = 100.0 * double(intervals::total(compute)) / double(total);
        const IntervalList kernels = co >= 0 ? intervals::unite(compute, ra.breakdown.unions[size_t(co)]) : compute;
        ra.gpuBusyPct = 100.0 * double(intervals::total(kernels)) / double(total);
    }
    if (options.batchSize) {
        ra.batchSize = options.batchSize;
        ra.batchSizeSource = options.batchSizeSource.empty() ? std::string("cli") : options.batchSizeSource;
    } else if (options.detectBatchSize) {
        if (const auto d = BatchSizeDetector::detect(trace, m_store, run, ra.steps)) {
            ra.batchSize = d->value;
            ra.batchSizeSource = "detected";
            ra.batchSizeEvidence = d->evidence;
        }
    }
    if (ra.batchSize && !ra.steps.steps.empty() && total > 0) {
        ra.samplesPerSecond = double(*ra.batchSize) * double(ra.steps.steps.size()) / (double(total) / 1e9);
        for (const AnalysisStep &s : ra.steps.steps)
            ra.samplesPerSecondPerStep.push_back(s.dur() > 0 ? double(*ra.batchSize) / (double(s.dur()) / 1e9) : 0.0);
    }

    throwIfCancelled(cancel);
    ra.gaps = GpuGapAnalyzer::analyze(trace, types, ra.breakdown, ra.steps);
    if (!ra.steps.steps.empty()) {
        ra.ops = OpStatsAnalyzer::analyze(trace, types, ra.steps.steps.front().start, ra.steps.steps.back().end);
        OpStatsAnalyzer::addKernelDetails(ra.ops, trace, m_store, run, ra.steps.steps.front().start, ra.steps.steps.back().end);
        OpEfficiencyAnalyzer::apply(ra.ops, trace, m_store, run, ra.steps.steps.front().start, ra.steps.steps.back().end);
        ra.collectives = CollectiveStatsAnalyzer::analyze(trace, types, co, dc, m_store, run, ra.steps.steps.front().start,
                                                          ra.steps.steps.back().end);
    }

    throwIfCancelled(cancel);
    const MetricData metrics = m_metrics ? MetricData::load(m_store, *m_metrics, run, reader.singleRun())
                                         : MetricData::load(m_store, run, reader.singleRun());
    ra.gpuMetrics = metrics.has("gpu_util");
    static const StepEventRules stageRules = StepEventRules::load("tf_data_stages.tsv");
    if (!ra.steps.steps.empty())
        ra.tfData = TfDataPipeline::analyze(trace, ra.steps.steps.front().start, ra.steps.steps.back().end, stageRules);
    throwIfCancelled(cancel);
    BottleneckRules::decide(ra, trace, types, metrics);
    static const StepEventRules stepEvents = StepEventRules::load();
    FindingRules::evaluate(ra, trace, types, stepEvents, frameworkOf(run.framework));
    ExpertRules::evaluate(ra, trace, types);
    MetricRules::evaluate(ra, metrics);
    MemoryHeadroom::evaluate(ra, metrics);
    ProjectionRules::evaluate(ra, trace, types);
    OpEfficiencyAnalyzer::evaluate(ra, run.device, run.framework);
    CollectiveStatsAnalyzer::evaluate(ra, run.device);
    CrossChecks::evaluate(ra, reader, run);
    return ra;
}

} // namespace stepscope

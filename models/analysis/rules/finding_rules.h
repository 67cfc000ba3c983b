#pragma once
// FindingRules turns a run's breakdown, GPU busy time, gaps and step times into findings with
// severity, evidence (steps, time range) and a concrete recommendation: the TensorFlow profiler's
// verdicts at its thresholds (input, output, kernel launch, all others, collectives), the PyTorch
// profiler plugin's recommendations (DataLoader > 5%, communication > 10%, GPU utilization < 50%; on
// PyTorch runs, or borrowed on runs of unknown framework),
// Stepscope's own stage rules (callback, checkpoint, H2D, compilation, GPU idle), SageMaker's
// StepOutlier at its defaults and outlier steps classified by what coincides with them.
// MetricRules (metric_rules.h) adds the SageMaker rules on instance metrics. Called by RunAnalyzer.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/rules/framework_advice.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/analysis/engine/trace_data.h"

namespace stepscope {

class FindingRules {
public:
    // Recommendations are worded for `framework` (framework_advice.h).
    static void evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types,
                         const StepEventRules &stepEvents, Framework framework);
    // Steps longer than 1.5x the median (at least 3 steps), each labelled by what coincides with it.
    static std::vector<OutlierStep> outlierSteps(const RunAnalysis &ra, const TraceData &trace,
                                                 const std::vector<int8_t> &types, const StepEventRules &stepEvents);
};

// Helpers shared by the rule files.
std::string formatPct(double v);
// Steps whose share of `c` is at least `minShare` (0..1), and the time range they cover.
Finding withEvidence(Finding f, const RunAnalysis &ra, Category c, double minShare);

} // namespace stepscope

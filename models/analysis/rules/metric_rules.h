#pragma once
// MetricRules evaluates SageMaker Debugger's built-in profiler rules on the run's instance metrics at
// their SDK defaults: LowGPUUtilization (p95 < 70 / fluctuating p5 < 10, last 500 samples),
// CPUBottleneck and IOBottleneck (GPU < 10% while a core > 90% / I/O wait > 50% in > 50% of snapshots),
// BatchSize (CPU, GPU and GPU-memory p95 all < 70), GPUMemoryIncrease (+5 points between 10-sample
// windows) and LoadBalancing (Jensen-Shannon distance of 2%-bin GPU-utilisation histograms > 0.5).
// `patience` (samples ignored at start-up, 1000 by default) is capped at 10% of the samples so that
// short captures are evaluated. Called by RunAnalyzer.

#include "models/analysis/engine/metric_data.h"
#include "models/analysis/engine/run_analysis.h"

namespace stepscope {

class MetricRules {
public:
    static void evaluate(RunAnalysis &ra, const MetricData &metrics);
    // Jensen-Shannon distance (sqrt of the divergence, log base 2) of two utilisation samples,
    // histogrammed in 2%-wide bins.
    static double jensenShannonDistance(const std::vector<double> &a, const std::vector<double> &b);
};

} // namespace stepscope

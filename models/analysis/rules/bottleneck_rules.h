#pragma once
// BottleneckRules names a run's bottleneck per DESIGN.md: device_compute when non-collective kernels
// cover >= 90% of step time, otherwise the other category with the most exposed time; and refines it
// (bottleneck_detail) where the evidence allows — input: io vs preprocessing from the costliest
// labelled tf.data stage (TfDataPipeline) when the trace has one, else from CPU/network/disk
// metrics or, without them, from how much of the input wait has traced work nested in it (transforms
// running on the training thread) versus untraced waiting (reading). Called by RunAnalyzer.

#include "models/analysis/engine/metric_data.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/analysis/engine/trace_data.h"

namespace stepscope {

class BottleneckRules {
public:
    static constexpr double kDeviceComputeBoundPct = 90.0;
    static void decide(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types, const MetricData &metrics);
};

} // namespace stepscope

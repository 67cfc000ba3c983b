#pragma once
// ExpertRules adds Nsight Systems' expert-system rules and HTA's kernel launch statistics to a run's
// analysis (issue #32), with the thresholds of their records in resources/rules/finding_rules.tsv:
//   pageable_memcpy  host<->device copies from or to pageable memory (Kineto's and Nsight's memory kinds)
//   sync_memcpy      copy calls that block the host: cudaMemcpy without Async, or an async copy call
//                    that returns only when its copy has ended (pageable memory)
//   sync_memset      blocking memsets (cudaMemset without Async)
//   sync_api         device/stream/event syncs in steps that sync more than once (not a healthy loop's
//                    one loss.item()) after which the GPU stays idle until the host gives it work
//   gpu_starvation   one GPU idle gap of 500 ms or more
//   launch_bound     many short kernels (< 10 us) with the GPU idle between them
// KernelStats (summary.kernels) counts the kernels of the steps, their median duration, the share of
// short ones, the launch delay (launch call end -> kernel start; p50, p95) and per stream the most
// kernels launched but not yet started. A graph launch's kernels share its correlation id: they are
// its launches. Called by RunAnalyzer before the projections, which then attach to these findings.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/analysis/engine/trace_data.h"

#include <map>
#include <string>
#include <vector>

namespace stepscope {

class ExpertRules {
public:
    static KernelStats kernelStats(const RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types,
                                   double shortKernelUs);
    static void evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types);
};

} // namespace stepscope

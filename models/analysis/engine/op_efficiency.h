#pragma once
// OpEfficiencyAnalyzer places each op's GPU work against the device's peak (issue #33, item 2; XProf's
// and TraceLens' roofline). The FLOPs and bytes of each framework op come from its recorded shapes,
// computed at import (importers/common/op_cost.h, the session's slice_cost); its kernels, found through the launches nested in it (correlation ids), share the
// figures of the innermost costed op around their launch by time. A framework op's figures are its own
// over the GPU time of all the kernels it launched. Against the run's device (DevicePeaks) and the
// dtype that carried most of the time (fp32 work on TF32 kernels counts against the TF32 peak), each op
// gets achieved TFLOPS and GB/s, the share of the roof at its arithmetic intensity (pct_of_peak), and
// whether it is compute- or memory-bound. Then the inefficient_op finding: GPU ops with a large share
// of device time and a low share of their roof, with what running at the target share would be worth.
// Called by RunAnalyzer after the op statistics.

#include "models/analysis/engine/op_stats_analyzer.h"

#include <string>
#include <vector>

namespace stepscope {

struct RunAnalysis;

class OpEfficiencyAnalyzer {
public:
    // Fills OpStat::efficiency of the ops in `ops` for slices starting inside [start, end) (absolute ns).
    static void apply(std::vector<OpStat> &ops, const TraceData &trace, const SessionStore &store, const RunRow &run,
                      int64_t start, int64_t end);
    // The inefficient_op findings (thresholds in its record of resources/rules/finding_rules.tsv); `framework` as in RunRow.
    static void evaluate(RunAnalysis &ra, const std::string &deviceName, const std::string &framework);
};

} // namespace stepscope

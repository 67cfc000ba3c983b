#pragma once
// CrossChecks puts what another profiler concluded about a run beside Stepscope's own verdict: the
// TensorFlow profiler's analysis files imported into tool_verdict (TfProfilerToolImporter) that lie
// in the folder of the run's trace (the same host's files when the folder names several hosts). Each
// says its input-bound % ("input" in TensorFlow's sense: waiting for input plus host-to-device
// copies, which Stepscope's `input` + `h2d` measure), its bottleneck sentence, device type and top
// ops. A difference of more than kAgreePoints is itself a finding (`tf_profiler_disagrees`): one of
// the two is looking at different steps or misses time. Called by RunAnalyzer.

#include "models/analysis/engine/run_analysis.h"
#include "models/store/session_reader.h"

namespace stepscope {

class CrossChecks {
public:
    static constexpr double kAgreePoints = 10.0;
    static void evaluate(RunAnalysis &ra, const SessionReader &reader, const RunRow &run);
    // "TensorFlow profiler: 61.0 % input-bound — Stepscope: 58.7 %"
    static std::string describe(const CrossCheck &check);
};

} // namespace stepscope

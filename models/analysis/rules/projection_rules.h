#pragma once
// ProjectionRules attaches to each finding what fixing it is worth (Projection: projected mean step
// time, speedup, samples/s and the method) and to the run the projection of its bottleneck. A
// finding about a category removes that category's time (StepProjector: replay along the trace's
// launch links, else exposed time); a finding about slow steps brings those steps down to the median
// step. Findings about symptoms (low GPU utilization, idle gaps, instance metrics) get none: their
// cause is named by another finding. Called by RunAnalyzer after the findings are made.

#include "models/analysis/engine/run_analysis.h"
#include "models/analysis/engine/trace_data.h"

#include <string>
#include <vector>

namespace stepscope {

class ProjectionRules {
public:
    static void evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types);
    // Builds a Projection from projected per-step durations (mean, speedup, samples/s).
    static Projection summarize(const RunAnalysis &ra, std::string category, std::string method,
                                std::vector<int64_t> perStepNs);
};

// The run's projections, one per cause, biggest speedup first (what the report and findings lead with).
std::vector<const Projection *> rankedProjections(const RunAnalysis &ra);

// "input: step 235.0 → 61.0 ms, 3.85× samples/s" — the one-line form the report and the views use.
std::string describeProjection(const Projection &p);

} // namespace stepscope

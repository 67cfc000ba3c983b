#pragma once
// jobCriticalPath: the job's critical path through the collective joins (JobCriticalPath), from the
// rank that arrived last at each aligned step's first collective (found by JobAnalyzer) and that
// rank's own critical path (RunAnalysis::criticalPath) up to the join. Called by JobAnalyzer.

#include "models/analysis/engine/job_analysis.h"

#include <optional>
#include <vector>

namespace stepscope {

// `path.rankPerStep` holds rows of job.ranksTable (or -1); they become ranks here. `stepsSet`: per row,
// the aligned steps it arrived last in. Nothing when no step has a collective or no rank has a path.
std::optional<JobCriticalPath> jobCriticalPath(const std::vector<JobMember> &runs, const JobAnalysis &job, JobCriticalPath path,
                                               const std::vector<int64_t> &stepsSet);

} // namespace stepscope

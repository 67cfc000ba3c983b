#include "models/analysis/engine/job_critical_path.h"

#include <algorithm>

namespace stepscope {

std::optional<JobCriticalPath> jobCriticalPath(const std::vector<JobMember> &runs, const JobAnalysis &job, JobCriticalPath path,
                                               const std::vector<int64_t> &stepsSet) {
    if (stepsSet.empty()) return std::nullopt;
    const size_t row = size_t(std::max_element(stepsSet.begin(), stepsSet.end()) - stepsSet.begin());
    if (stepsSet[row] == 0) return std::nullopt;
    const RunAnalysis &a = *runs[job.ranksTable[row].runIndex].analysis;
    if (!a.criticalPath || a.criticalPath->steps.size() != a.steps.steps.size()) return std::nullopt;
    // The rank's preset types -> categories.
    std::vector<int> categoryOf(a.breakdown.types.size(), int(Category::Other));
    for (int c = 0; c < kCategoryCount; ++c)
        if (const int t = a.categoryType[size_t(c)]; t >= 0 && size_t(t) < categoryOf.size()) categoryOf[size_t(t)] = c;
    int64_t beforeJoin = 0, counted = 0;
    for (size_t j = 0; j < path.rankPerStep.size(); ++j) {
        if (path.rankPerStep[j] != int64_t(row)) continue;
        const size_t k = job.stepIndex[row][j];
        if (k >= a.firstCollective.size() || a.firstCollective[k].startNs < 0) continue;
        const int64_t join = a.firstCollective[k].startNs;
        for (const CriticalPathSegment &s : a.criticalPath->steps[k].segments) {
            const int64_t end = std::min(s.end, join);
            if (end <= s.start) continue;
            beforeJoin += end - s.start;
            const int c = s.type >= 0 && size_t(s.type) < categoryOf.size() ? categoryOf[size_t(s.type)] : int(Category::Other);
            path.beforeJoinNs[size_t(c)] += end - s.start;
        }
        ++counted;
    }
    for (int64_t &r : path.rankPerStep)
        if (r >= 0) r = job.ranksTable[size_t(r)].rank;
    path.rank = job.ranksTable[row].rank;
    path.run = job.ranksTable[row].run;
    path.stepsSet = stepsSet[row];
    path.beforeJoinMsMean = counted ? double(beforeJoin) / double(counted) / 1e6 : 0.0;
    path.topEvents = a.criticalPath->topNames;
    path.topEventsSteps = double(std::max<size_t>(1, a.criticalPath->steps.size()));
    return path;
}

} // namespace stepscope

#include "models/analysis/engine/job_analysis.h"

#include "models/analysis/rules/finding_rule_ids.h"

#include "models/analysis/engine/job_critical_path.h"

#include "models/analysis/rules/projection_rules.h"
#include "models/store/session_reader.h"
#include "models/trace/rank_in_name.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace stepscope {

namespace {

// A step's wait counts as a rank being late when it costs the others at least this much.
constexpr int64_t kMinLateNs = 1'000'000;
constexpr double kMinLateShareOfStep = 0.05;

template <typename T> T medianOf(std::vector<T> v) {
    if (v.empty()) return T{};
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    return v[mid];
}

std::string msText(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", ms);
    return buf;
}

// Aligns the rows' steps by number when they share their numbers, else by order.
void alignSteps(const std::vector<JobMember> &runs, JobAnalysis &job) {
    std::vector<std::vector<int64_t>> numbers;
    size_t fewest = SIZE_MAX;
    for (const JobRankRow &row : job.ranksTable) {
        std::vector<int64_t> n;
        for (const AnalysisStep &s : runs[row.runIndex].analysis->steps.steps) n.push_back(s.step);
        fewest = std::min(fewest, n.size());
        std::sort(n.begin(), n.end());
        numbers.push_back(std::move(n));
    }
    std::vector<int64_t> common = numbers.front();
    for (size_t r = 1; r < numbers.size(); ++r) {
        std::vector<int64_t> both;
        std::set_intersection(common.begin(), common.end(), numbers[r].begin(), numbers[r].end(), std::back_inserter(both));
        common = std::move(both);
    }
    job.stepIndex.assign(job.ranksTable.size(), {});
    if (!common.empty() && common.size() * 2 >= fewest) {
        for (size_t r = 0; r < job.ranksTable.size(); ++r) {
            const auto &steps = runs[job.ranksTable[r].runIndex].analysis->steps.steps;
            std::map<int64_t, size_t> at;
            for (size_t k = 0; k < steps.size(); ++k) at.emplace(steps[k].step, k);
            for (int64_t n : common) job.stepIndex[r].push_back(at[n]);
        }
        job.alignedSteps = common;
        if (common.size() < fewest)
            job.notes.push_back("ranks hold different steps: " + std::to_string(common.size()) +
                                " steps that every rank has are compared");
        return;
    }
    job.alignedByOrder = true;
    for (size_t r = 0; r < job.ranksTable.size(); ++r)
        for (size_t k = 0; k < fewest; ++k) job.stepIndex[r].push_back(k);
    for (size_t k = 0; k < fewest; ++k)
        job.alignedSteps.push_back(runs[job.ranksTable.front().runIndex].analysis->steps.steps[k].step);
    std::string ranges;
    for (size_t r = 0; r < job.ranksTable.size() && r < 4; ++r) {
        const auto &n = numbers[r];
        if (n.empty()) continue;
        ranges += (ranges.empty() ? "" : ", ") + ("rank " + std::to_string(job.ranksTable[r].rank) + ": " +
                                                  std::to_string(n.front()) + "-" + std::to_string(n.back()));
    }
    job.notes.push_back("ranks number their steps differently (" + ranges + (job.ranksTable.size() > 4 ? ", ..." : "") +
                        "): steps are aligned by order, the first " + std::to_string(fewest) + " of each rank");
}

// The category that costs `row` more per step than the other ranks' median (collective excluded:
// the others' wait is the symptom); its excess in ns per step.
std::pair<Category, double> ownCause(const std::vector<JobMember> &runs, const JobAnalysis &job, size_t row) {
    std::pair<Category, double> best{Category::Other, -1.0};
    for (int c = 0; c < kCategoryCount; ++c) {
        if (Category(c) == Category::Collective) continue;
        std::vector<double> others;
        double own = 0;
        for (size_t r = 0; r < job.ranksTable.size(); ++r) {
            const RunAnalysis &a = *runs[job.ranksTable[r].runIndex].analysis;
            double sum = 0;
            for (size_t k : job.stepIndex[r]) sum += double(a.categoryNs(k, Category(c)));
            const double mean = job.stepIndex[r].empty() ? 0 : sum / double(job.stepIndex[r].size());
            if (r == row) own = mean;
            else others.push_back(mean);
        }
        const double excess = own - medianOf(others);
        if (excess > best.second) best = {Category(c), excess};
    }
    return best;
}

void addFindings(const std::vector<JobMember> &runs, const JobAnalysis &job) {
    for (const JobRankRow &row : job.ranksTable) {
        RunAnalysis &a = *runs[row.runIndex].analysis;
        JobRankNote note = JobAnalyzer::noteFor(job, row, a);
        if (!note.symptom.empty()) a.bottleneckEvidence += (a.bottleneckEvidence.empty() ? "" : " ") + note.symptom;
        if (note.finding) a.findings.insert(a.findings.begin(), std::move(*note.finding));
    }
}

} // namespace

JobRankNote JobAnalyzer::noteFor(const JobAnalysis &job, const JobRankRow &row, const RunAnalysis &analysis) {
    JobRankNote note;
    if (job.stragglers.empty()) return note;
    const JobStraggler &s = job.stragglers.front();
    const std::string who = "rank " + std::to_string(s.rank) + "'s " + s.cause;
    Finding f;
    f.steps = job.alignedSteps;
    if (row.rank == s.rank) {
        f.rule = rule_id::JobStraggler;
        f.severity = FindingSeverity::High;
        f.title = "Holds the job back: arrives ~" + msText(s.lateMsPerStep) + " ms/step late at the first all-reduce (" +
                  s.cause + ")";
        f.detail = "Its " + s.cause + " takes ~" + msText(s.causeExcessMsPerStep) +
                   " ms/step more than on the other ranks; every other rank waits inside its all-reduce until this "
                   "rank joins, in " + std::to_string(s.lateSteps) + " of " + std::to_string(job.alignedSteps.size()) +
                   " steps.";
        f.recommendation = "Fix this rank's " + s.cause + " first: the whole job runs at its pace.";
    } else if (row.collectiveWaitMs * 1e6 >= double(kMinLateNs)) {
        f.rule = "job_waits_for_straggler";
        f.severity = FindingSeverity::High;
        f.title = "Waits ~" + msText(row.collectiveWaitMs) + " ms/step for " + who;
        f.detail = "This rank's collective time is the symptom: its first all-reduce of each step spins until rank " +
                   std::to_string(s.rank) + " joins; that rank is late because of its " + s.cause + ".";
        f.recommendation = "Look at " + s.named() + ", not at this rank's communication.";
        if (analysis.bottleneck == "collective")
            note.symptom = "(the symptom: it waits ~" + msText(row.collectiveWaitMs) + " ms/step for " + who + ")";
    } else {
        return note;
    }
    // What it is worth: this rank's steps without the straggler's lateness (the straggler's own
    // steps without it too — the job runs at its pace).
    const double gainMs = row.rank == s.rank ? s.lateMsPerStep : row.collectiveWaitMs;
    std::vector<int64_t> perStep;
    for (const AnalysisStep &step : analysis.steps.steps)
        perStep.push_back(std::max<int64_t>(0, step.dur() - int64_t(gainMs * 1e6)));
    if (gainMs > 0 && !perStep.empty())
        f.projection = ProjectionRules::summarize(analysis, "straggler", "job_lateness_removed", std::move(perStep));
    note.finding = std::move(f);
    return note;
}

namespace {
// Ranks below the highest one that no trace gave: the first few by number, the rest counted (a rank
// numbered 2147483647 must not make two billion notes). Walks the gaps between the ranks seen.
void noteMissingRanks(const std::set<int64_t> &seen, int64_t highest, std::vector<std::string> &notes) {
    constexpr int64_t kListed = 8;
    int64_t missing = 0, next = 0, lastMissing = -1;
    const auto gap = [&](int64_t lo, int64_t hi) {  // [lo, hi) missing
        for (int64_t r = lo; r < hi && missing + (r - lo) < kListed; ++r)
            notes.push_back("rank " + std::to_string(r) + " is missing: no trace of it was imported");
        missing += hi - lo;
        lastMissing = hi - 1;
    };
    for (const int64_t r : seen) {
        if (r < next) continue;
        if (r >= highest) break;
        if (r > next) gap(next, r);
        next = r + 1;
    }
    if (next < highest) gap(next, highest);
    if (missing > kListed)
        notes.push_back(std::to_string(missing - kListed) + " more ranks are missing, up to rank " + std::to_string(lastMissing) +
                        " (" + std::to_string(missing) + " in all): no trace of them was imported");
}
} // namespace

std::optional<JobAnalysis> JobAnalyzer::analyze(const std::vector<JobMember> &runs, const std::vector<SourceRow> &sources,
                                                bool withFindings) {
    JobAnalysis job;
    std::map<int64_t, const SourceRow *> sourceOf;
    for (const SourceRow &s : sources) sourceOf[s.id] = &s;
    std::set<int64_t> seen;
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto &rank = runs[i].run->rank;
        if (!rank) continue;
        // What was read of a trace that failed (its header, no events) is no rank to compare.
        if (const auto it = sourceOf.find(runs[i].run->sourceId); it != sourceOf.end() && it->second->status == "failed") continue;
        if (!seen.insert(*rank).second) {
            job.notes.push_back("rank " + std::to_string(*rank) + " appears twice: run '" + runs[i].run->name + "' is left out");
            continue;
        }
        const auto &steps = runs[i].analysis->steps;
        const double meanMs = steps.steps.empty() ? 0.0 : double(steps.totalNs()) / double(steps.steps.size()) / 1e6;
        job.ranksTable.push_back({*rank, runs[i].run->name, i, meanMs, runs[i].analysis->bottleneck, 0});
    }
    if (job.ranksTable.size() < 2) return std::nullopt;
    std::sort(job.ranksTable.begin(), job.ranksTable.end(), [](const JobRankRow &a, const JobRankRow &b) { return a.rank < b.rank; });
    job.ranks = int(job.ranksTable.size());
    std::map<int64_t, int64_t> rankOfSource;
    for (const JobMember &m : runs)
        if (m.run->rank) rankOfSource[m.run->sourceId] = *m.run->rank;
    for (const SourceRow &s : sources) {
        if (s.status != "failed") continue;
        // The rank the failed trace's run says (its header was read), else its file name.
        const auto known = rankOfSource.find(s.id);
        const std::optional<int64_t> r = known != rankOfSource.end()
                                             ? std::optional<int64_t>(known->second)
                                             : rankInName(std::filesystem::path(s.path).filename().string());
        if (r && !seen.count(*r)) {
            job.notes.push_back("rank " + std::to_string(*r) + " is missing: " + s.path + " could not be read");
            seen.insert(*r);
        }
    }
    noteMissingRanks(seen, job.ranksTable.back().rank, job.notes);
    alignSteps(runs, job);

    const size_t n = job.ranksTable.size();
    std::vector<int64_t> waitNs(n, 0), waitSteps(n, 0), lateNs(n, 0), lateSteps(n, 0), jobStepNs;
    JobCriticalPath path;
    path.rankPerStep.assign(job.alignedSteps.size(), -1);
    std::vector<int64_t> stepsSet(n, 0);
    int64_t collectiveSteps = 0;
    for (size_t j = 0; j < job.alignedSteps.size(); ++j) {
        std::vector<int64_t> durs(n, -1), stepDurs;
        for (size_t r = 0; r < n; ++r) {
            const RunAnalysis &a = *runs[job.ranksTable[r].runIndex].analysis;
            const size_t k = job.stepIndex[r][j];
            stepDurs.push_back(a.steps.steps[k].dur());
            if (k < a.firstCollective.size() && a.firstCollective[k].startNs >= 0) durs[r] = a.firstCollective[k].durNs;
        }
        jobStepNs.push_back(*std::max_element(stepDurs.begin(), stepDurs.end()));
        // The rank with the shortest first collective arrived last: the others spun in it until it came.
        size_t last = n;
        for (size_t r = 0; r < n; ++r)
            if (durs[r] >= 0 && (last == n || durs[r] < durs[last])) last = r;
        if (last == n) continue;
        path.rankPerStep[j] = int64_t(last);  // a row of ranksTable until the end
        ++stepsSet[last];
        std::vector<int64_t> others;
        for (size_t r = 0; r < n; ++r) {
            if (durs[r] < 0) continue;
            waitNs[r] += durs[r] - durs[last];
            ++waitSteps[r];
            if (r != last) others.push_back(durs[r] - durs[last]);
        }
        if (others.empty()) continue;
        ++collectiveSteps;
        const int64_t cost = medianOf(others);
        const auto threshold = std::max<int64_t>(kMinLateNs, int64_t(kMinLateShareOfStep * double(medianOf(stepDurs))));
        if (cost >= threshold) {
            lateNs[last] += cost;
            ++lateSteps[last];
        }
    }
    job.criticalPath = jobCriticalPath(runs, job, std::move(path), stepsSet);
    for (size_t r = 0; r < n; ++r)
        job.ranksTable[r].collectiveWaitMs = waitSteps[r] ? double(waitNs[r]) / double(waitSteps[r]) / 1e6 : 0.0;
    if (!jobStepNs.empty()) {
        double sum = 0;
        for (int64_t d : jobStepNs) sum += double(d);
        job.meanStepMs = sum / double(jobStepNs.size()) / 1e6;
        job.medianStepMs = double(medianOf(jobStepNs)) / 1e6;
    }
    for (size_t r = 0; r < n; ++r) {
        if (collectiveSteps < 2 || lateSteps[r] * 2 < collectiveSteps) continue;
        const auto [cause, excessNs] = ownCause(runs, job, r);
        job.stragglers.push_back({job.ranksTable[r].rank, job.ranksTable[r].run, std::string(categoryName(cause)),
                                  double(lateNs[r]) / double(collectiveSteps) / 1e6, lateSteps[r], excessNs / 1e6});
    }
    std::sort(job.stragglers.begin(), job.stragglers.end(),
              [](const JobStraggler &a, const JobStraggler &b) { return a.lateMsPerStep > b.lateMsPerStep; });
    if (!job.stragglers.empty()) {
        job.bottleneck = job.stragglers.front().cause;
        job.bottleneckRank = job.stragglers.front().rank;
    } else {
        std::map<std::string, int> votes;
        for (const JobRankRow &row : job.ranksTable) ++votes[row.bottleneck];
        int most = 0;
        for (const JobRankRow &row : job.ranksTable)  // ties: the lowest rank's verdict
            if (votes[row.bottleneck] > most) {
                most = votes[row.bottleneck];
                job.bottleneck = row.bottleneck;
            }
    }
    if (withFindings) addFindings(runs, job);
    return job;
}

} // namespace stepscope

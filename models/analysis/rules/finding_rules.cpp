#include "models/analysis/rules/finding_rules.h"

#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace stepscope {

std::string formatPct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", v);
    return b;
}

Finding withEvidence(Finding f, const RunAnalysis &ra, Category c, double minShare) {
    for (size_t k = 0; k < ra.steps.steps.size(); ++k) {
        const AnalysisStep &s = ra.steps.steps[k];
        if (s.dur() > 0 && double(ra.categoryNs(k, c)) >= minShare * double(s.dur())) {
            if (f.steps.empty()) f.startNs = s.start;
            f.endNs = s.end;
            f.steps.push_back(s.step);
        }
    }
    return f;
}

namespace {

// A threshold as the rule's text quotes it: "5%", "2.5%".
std::string limitPct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g%%", v);
    return b;
}

// One TF-style verdict: high from the rule's high_pct, moderate from its moderate_pct.
void verdict(RunAnalysis &ra, std::string_view id, double value, Category evidence, const std::string &what, Framework fw) {
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(id);
    const double medium = rule.threshold("moderate_pct"), highPct = rule.threshold("high_pct");
    if (value < medium) return;
    const bool high = value >= highPct;
    Finding f{rule.id, high ? FindingSeverity::High : FindingSeverity::Medium, (high ? "Highly " : "Moderately ") + what,
              formatPct(value) + " of step time (TensorFlow profiler thresholds: >= " + formatPct(medium) +
                  " moderate, >= " + formatPct(highPct) + " high).",
              FindingRuleBook::builtin().recommendation(id, fw), {}, 0, 0};
    ra.findings.push_back(withEvidence(std::move(f), ra, evidence, 0.05));
}

void tensorflowVerdicts(RunAnalysis &ra, Framework fw) {
    const double input = ra.categoryPct(Category::Input) + ra.categoryPct(Category::H2D);
    const double other = ra.categoryPct(Category::Other);
    const FindingRuleRecord &inputRule = FindingRuleBook::builtin().rule(rule_id::TfInputBound);
    const double untracedPct = inputRule.threshold("untraced_pct");
    if (input >= inputRule.threshold("moderate_pct")) {
        verdict(ra, rule_id::TfInputBound, input, Category::Input, "input-bound", fw);
        // TensorFlow counts host-to-device copies as input: say so, beside the input share alone.
        ra.findings.back().detail += " That is input " + formatPct(ra.categoryPct(Category::Input)) +
                                     " plus host-to-device copies " + formatPct(ra.categoryPct(Category::H2D)) + ", as TensorFlow counts it.";
        if (const TfDataStage *stage = ra.tfData.costliestLabelled()) {
            Finding &f = ra.findings.back();
            f.detail += " Costliest tf.data stage: " + ra.tfData.describe(*stage) + ".";
            f.recommendation = (stage->label == "io"
                                    ? "Reading is the slow stage: interleave files in parallel (num_parallel_calls=AUTOTUNE), "
                                      "cache or stage the data closer, use larger records. "
                                    : "Preprocessing is the slow stage: raise its num_parallel_calls (AUTOTUNE), vectorize "
                                      "(batch before map), move fixed work offline or to the GPU. ") +
                               f.recommendation;
        }
    } else if (other >= untracedPct) {
        ra.findings.push_back(withEvidence({inputRule.id, FindingSeverity::Low, "Potentially input-bound (I/O or Python)",
                                            formatPct(input) + " input, but " + formatPct(other) + " of step time is untraced (>= " +
                                                limitPct(untracedPct) + "): reading data or Python overhead.",
                                            "Trace the input pipeline (with_stack / record_function) to see where untraced time goes.",
                                            {}, 0, 0},
                                           ra, Category::Other, 0.05));
    } else {
        ra.findings.push_back({inputRule.id, FindingSeverity::Info, "Not input-bound",
                               formatPct(input) + " of step time waits for input (< " + limitPct(inputRule.threshold("moderate_pct")) + ").",
                               "", {}, 0, 0});
    }
    verdict(ra, rule_id::TfOutputBound, ra.categoryPct(Category::D2H), Category::D2H, "output-bound (device to host)", fw);
    verdict(ra, rule_id::TfKernelLaunch, ra.categoryPct(Category::KernelLaunch), Category::KernelLaunch, "bound by kernel launch", fw);
    verdict(ra, rule_id::TfAllOthers, other, Category::Other, "spent in untraced time (all others)", fw);
    verdict(ra, rule_id::TfCollectives, ra.categoryPct(Category::Collective), Category::Collective,
            "bound by device collective communication", fw);
}

// The PyTorch profiler plugin's rules: on PyTorch runs; on a run of unknown framework (an Nsight export)
// they say whose rule they are; never on TensorFlow or JAX runs.
void pytorchRecommendations(RunAnalysis &ra, Framework fw) {
    if (fw != Framework::PyTorch && fw != Framework::Unknown) return;
    const std::string borrowed = fw == Framework::Unknown ? " (PyTorch profiler plugin rule)" : "";
    const FindingRuleBook &book = FindingRuleBook::builtin();
    const FindingRuleRecord &loading = book.rule(rule_id::PtDataloader), &communication = book.rule(rule_id::PtCommunication),
                            &lowUse = book.rule(rule_id::PtLowGpuUtilization);
    const double input = ra.categoryPct(Category::Input);
    if (input > loading.threshold("min_pct"))
        ra.findings.push_back(withEvidence(
            {loading.id, input >= loading.threshold("high_pct") ? FindingSeverity::High : FindingSeverity::Medium,
             "High time cost on input data loading" + borrowed,
             formatPct(input) + " of step time is spent in the DataLoader (PyTorch profiler plugin: > " +
                 limitPct(loading.threshold("min_pct")) + ").",
             book.recommendation(loading.id, Framework::PyTorch), {}, 0, 0},
            ra, Category::Input, 0.05));
    const double comm = ra.categoryPct(Category::Collective);
    if (comm > communication.threshold("min_pct"))
        ra.findings.push_back(withEvidence(
            {communication.id, comm >= communication.threshold("high_pct") ? FindingSeverity::High : FindingSeverity::Medium,
             "High communication time" + borrowed,
             formatPct(comm) + " of step time is exposed communication (PyTorch profiler plugin: > " +
                 limitPct(communication.threshold("min_pct")) + ").",
             book.recommendation(communication.id, Framework::PyTorch), {}, 0, 0},
            ra, Category::Collective, 0.05));
    const double maxBusy = lowUse.threshold("max_busy_pct");
    if (ra.gpuTraced && ra.gpuBusyPct < maxBusy && !ra.steps.steps.empty())  // a CPU-only trace has no GPU to fill
        ra.findings.push_back({lowUse.id, ra.gpuBusyPct < lowUse.threshold("high_max_busy_pct") ? FindingSeverity::High : FindingSeverity::Medium,
                               "Low GPU utilization" + borrowed,
                               "GPU kernels run during " + formatPct(ra.gpuBusyPct) + " of step time (PyTorch profiler plugin: < " +
                                   limitPct(maxBusy) + ").",
                               book.recommendation(lowUse.id, Framework::PyTorch),
                               {}, ra.steps.steps.front().start, ra.steps.steps.back().end});
}

void stageRules(RunAnalysis &ra, Framework fw) {
    struct Stage {
        std::string_view rule;
        const char *title;
    };
    static const Stage stages[] = {
        {rule_id::CallbackBound, "Slow per-step callbacks"},
        {rule_id::CheckpointBound, "Checkpoints stall training"},
        {rule_id::H2dExposed, "Exposed host-to-device copies"},
        {rule_id::Compilation, "Compilation during training"},
    };
    const FindingRuleBook &book = FindingRuleBook::builtin();
    for (const Stage &s : stages) {
        const FindingRuleRecord &rule = book.rule(s.rule);
        const Category c = rule.causes.at(0);  // the stage the rule is about
        const double p = ra.categoryPct(c);
        if (p < rule.threshold("min_pct")) continue;
        ra.findings.push_back(withEvidence({rule.id, p >= rule.threshold("high_pct") ? FindingSeverity::High : FindingSeverity::Medium,
                                            s.title, formatPct(p) + " of step time is exposed " + std::string(categoryName(c)) + ".",
                                            book.recommendation(rule.id, fw), {}, 0, 0},
                                           ra, c, 0.02));
    }
    // Device gaps are summed over the GPUs: compare them with the step time of as many GPUs.
    std::set<int> gpus;
    for (const StreamGaps &s : ra.gaps.streams) gpus.insert(s.device);
    const double devices = double(std::max<size_t>(1, gpus.size()));
    const double total = double(ra.steps.totalNs()) * devices;
    const FindingRuleRecord &idle = book.rule(rule_id::GpuIdle);
    if (ra.gpuTraced && total > 0 && double(ra.gaps.device.totalNs) > idle.threshold("min_step_pct") / 100 * total) {
        std::string top = "nothing_traced";
        int64_t topNs = -1;
        for (const auto &[k, v] : ra.gaps.byHostActivityNs)
            if (v > topNs) top = k, topNs = v;
        const double hostWait = 100.0 * double(ra.gaps.device.byCauseNs[0]) / double(std::max<int64_t>(1, ra.gaps.device.totalNs));
        Finding f{idle.id, double(ra.gaps.device.totalNs) > idle.threshold("high_step_pct") / 100 * total ? FindingSeverity::High : FindingSeverity::Medium, "GPU idle inside steps",
                  (devices > 1 ? "The " + std::to_string(gpus.size()) + " GPUs are idle on average " : std::string("The GPU is idle ")) +
                      formatPct(100.0 * double(ra.gaps.device.totalNs) / total) + " of step time in " +
                      std::to_string(ra.gaps.device.count) + " gaps; " + formatPct(hostWait) +
                      " of it waits for the host to issue work; during the gaps the host is mostly in " + top + ".",
                  "Fix what the host does during the gaps (" + top + "); see the other findings.", {}, 0, 0};
        if (!ra.gaps.top.empty()) {
            f.startNs = ra.gaps.top.front().start;
            f.endNs = f.startNs + ra.gaps.top.front().dur;
        }
        ra.findings.push_back(std::move(f));
    }
}

std::string outlierRecommendation(const std::string &cause, Framework fw) {
    if (cause == "checkpoint") return "Save checkpoints asynchronously or less often.";
    if (cause == "evaluation") return "Run evaluation less often or on a separate process/GPU.";
    if (cause == "summary_writing") return "Write summaries less often (every N steps) and flush asynchronously.";
    if (cause == "gc") return "Python GC pauses: call gc.freeze() after setup or gc.collect() at fixed intervals.";
    if (cause == "input") return FindingRuleBook::builtin().advice("outlier_input", fw);
    return "Zoom to these steps and compare them with a typical step.";
}

void stepOutlierRules(RunAnalysis &ra, Framework fw) {
    const auto &steps = ra.steps.steps;
    // SageMaker StepOutlier at its defaults: once > 100 steps, outliers are > mean + 3 sigma; fires on > 10.
    const FindingRuleRecord &stepOutlier = FindingRuleBook::builtin().rule(rule_id::SmStepOutlier);
    const double sigmas = stepOutlier.threshold("sigmas"), minOutliers = stepOutlier.threshold("min_outliers");
    if (double(steps.size()) > stepOutlier.threshold("min_steps")) {
        double mean = 0, var = 0;
        for (const AnalysisStep &s : steps) mean += double(s.dur());
        mean /= double(steps.size());
        for (const AnalysisStep &s : steps) var += (double(s.dur()) - mean) * (double(s.dur()) - mean);
        const double limit = mean + sigmas * std::sqrt(var / double(steps.size()));
        Finding f{stepOutlier.id, FindingSeverity::Medium, "Step outliers (SageMaker StepOutlier)", "", 
                  "Find what runs in the outlier steps (checkpoints, evaluation, summaries) and make it asynchronous.", {}, 0, 0};
        for (const AnalysisStep &s : steps)
            if (double(s.dur()) > limit) {
                if (f.steps.empty()) f.startNs = s.start;
                f.endNs = s.end;
                f.steps.push_back(s.step);
            }
        if (double(f.steps.size()) > minOutliers) {
            char rule[96];
            std::snprintf(rule, sizeof rule, "mean + %g sigma (%lld ms); StepOutlier fires above %g.", sigmas,
                          static_cast<long long>(limit / 1e6), minOutliers);
            f.detail = std::to_string(f.steps.size()) + " steps take longer than " + rule;
            ra.findings.push_back(std::move(f));
        }
    }
    if (ra.outliers.empty()) return;
    std::map<std::string, std::vector<int64_t>> byCause;
    for (const OutlierStep &o : ra.outliers) byCause[o.cause].push_back(o.step);
    for (const auto &[cause, list] : byCause) {
        const FindingRuleRecord &outliers = FindingRuleBook::builtin().rule(rule_id::OutlierSteps);
        Finding f{outliers.id,
                  double(list.size()) * 100 >= outliers.threshold("medium_share_pct") * double(steps.size()) ? FindingSeverity::Medium
                                                                                                         : FindingSeverity::Low,
                  "Slow steps coinciding with " + cause, "", outlierRecommendation(cause, fw), list, 0, 0};
        std::vector<int64_t> durs;
        for (const AnalysisStep &s : steps) durs.push_back(s.dur());
        std::nth_element(durs.begin(), durs.begin() + ptrdiff_t(durs.size() / 2), durs.end());
        const double median = double(durs[durs.size() / 2]);
        double worst = 0;
        for (const OutlierStep &o : ra.outliers)
            if (o.cause == cause) worst = std::max(worst, double(o.durNs) / std::max(1.0, median));
        char buf[160];
        std::snprintf(buf, sizeof buf, "%zu step(s) take up to %.1fx the median step (%.1f ms); %s runs in them.", list.size(),
                      worst, median / 1e6, cause.c_str());
        f.detail = buf;
        for (const AnalysisStep &s : steps)
            if (std::find(list.begin(), list.end(), s.step) != list.end()) {
                if (!f.startNs) f.startNs = s.start;
                f.endNs = s.end;
            }
        ra.findings.push_back(std::move(f));
    }
}

} // namespace

std::vector<OutlierStep> FindingRules::outlierSteps(const RunAnalysis &ra, const TraceData &trace,
                                                    const std::vector<int8_t> &types, const StepEventRules &stepEvents) {
    std::vector<OutlierStep> out;
    const auto &steps = ra.steps.steps;
    if (steps.size() < 3) return out;
    std::vector<int64_t> durs;
    for (const AnalysisStep &s : steps) durs.push_back(s.dur());
    std::sort(durs.begin(), durs.end());
    const int64_t median = durs[durs.size() / 2];
    std::vector<size_t> slow;
    const double slowVsMedian = FindingRuleBook::builtin().rule(rule_id::OutlierSteps).threshold("slow_vs_median");
    for (size_t k = 0; k < steps.size(); ++k)
        if (double(steps[k].dur()) > slowVsMedian * double(median)) slow.push_back(k);
    if (slow.empty()) return out;
    // Median per-category time of a step, to find which category the slow step has in excess.
    std::vector<int64_t> medianCat(kCategoryCount, 0);
    for (int c = 0; c < kCategoryCount; ++c) {
        std::vector<int64_t> v;
        for (size_t k = 0; k < steps.size(); ++k) v.push_back(ra.categoryNs(k, Category(c)));
        std::nth_element(v.begin(), v.begin() + ptrdiff_t(v.size() / 2), v.end());
        medianCat[size_t(c)] = v[v.size() / 2];
    }
    std::unordered_map<int32_t, std::string> labelCache;
    for (size_t k : slow) {
        const AnalysisStep &s = steps[k];
        std::map<std::string, int64_t> byLabel;
        for (const TraceTrack &t : trace.tracks) {
            if (t.gpu) continue;
            const auto first = trace.slices.begin() + ptrdiff_t(t.first), last = first + ptrdiff_t(t.count);
            auto it = std::lower_bound(first, last, s.start, [](const TraceSlice &x, int64_t v) { return x.start < v; });
            for (; it != last && it->start < s.end; ++it) {
                if (types[size_t(it - trace.slices.begin())] < 0) continue;
                auto c = labelCache.find(it->nameId);
                if (c == labelCache.end()) c = labelCache.emplace(it->nameId, stepEvents.label(trace.text(it->nameId))).first;
                if (!c->second.empty() && (it->parent < 0 || labelCache[trace.slices[size_t(it->parent)].nameId] != c->second))
                    byLabel[c->second] += std::min(it->end, s.end) - it->start;
            }
        }
        std::string cause;
        int64_t best = 0;
        for (const auto &[label, ns] : byLabel)
            if (ns > best && ns * 4 >= s.dur() - median) cause = label, best = ns;
        if (cause.empty()) {
            int64_t excess = -1;
            for (int c = 0; c < kCategoryCount; ++c) {
                const int64_t e = ra.categoryNs(k, Category(c)) - medianCat[size_t(c)];
                if (e > excess) excess = e, cause = std::string(kCategoryNames[size_t(c)]);
            }
        }
        out.push_back({s.step, s.dur(), cause});
    }
    return out;
}

void FindingRules::evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types,
                            const StepEventRules &stepEvents, Framework framework) {
    tensorflowVerdicts(ra, framework);
    pytorchRecommendations(ra, framework);
    stageRules(ra, framework);
    ra.outliers = outlierSteps(ra, trace, types, stepEvents);
    stepOutlierRules(ra, framework);
}

} // namespace stepscope

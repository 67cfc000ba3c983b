#include "models/analysis/finding_rules.h"

#include "models/analysis/framework_advice.h"

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

struct Threshold {
    double high, medium;
};

// One TF-style verdict: high at >= t.high, medium at >= t.medium.
void verdict(RunAnalysis &ra, const std::string &rule, double value, Threshold t, Category evidence,
             const std::string &what, const std::string &recommendation) {
    if (value < t.medium) return;
    const bool high = value >= t.high;
    Finding f{rule, high ? FindingSeverity::High : FindingSeverity::Medium, (high ? "Highly " : "Moderately ") + what,
              formatPct(value) + " of step time (TensorFlow profiler thresholds: >= " + formatPct(t.medium) +
                  " moderate, >= " + formatPct(t.high) + " high).",
              recommendation, {}, 0, 0};
    ra.findings.push_back(withEvidence(std::move(f), ra, evidence, 0.05));
}

void tensorflowVerdicts(RunAnalysis &ra, Framework fw) {
    const double input = ra.categoryPct(Category::Input) + ra.categoryPct(Category::H2D);
    const double other = ra.categoryPct(Category::Other);
    const std::string inputRec = FrameworkAdvice::text("input", fw);
    if (input >= 5) {
        verdict(ra, "tf_input_bound", input, {20, 5}, Category::Input, "input-bound", inputRec);
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
    } else if (other >= 3) {
        ra.findings.push_back(withEvidence({"tf_input_bound", FindingSeverity::Low, "Potentially input-bound (I/O or Python)",
                                            formatPct(input) + " input, but " + formatPct(other) +
                                                " of step time is untraced (>= 3%): reading data or Python overhead.",
                                            "Trace the input pipeline (with_stack / record_function) to see where untraced time goes.",
                                            {}, 0, 0},
                                           ra, Category::Other, 0.05));
    } else {
        ra.findings.push_back({"tf_input_bound", FindingSeverity::Info, "Not input-bound",
                               formatPct(input) + " of step time waits for input (< 5%).", "", {}, 0, 0});
    }
    verdict(ra, "tf_output_bound", ra.categoryPct(Category::D2H), {20, 5}, Category::D2H, "output-bound (device to host)",
            FrameworkAdvice::text("output", fw));
    verdict(ra, "tf_kernel_launch", ra.categoryPct(Category::KernelLaunch), {15, 3}, Category::KernelLaunch,
            "bound by kernel launch", FrameworkAdvice::text("kernel_launch", fw));
    verdict(ra, "tf_all_others", other, {15, 3}, Category::Other, "spent in untraced time (all others)",
            FrameworkAdvice::text("untraced", fw));
    verdict(ra, "tf_collectives", ra.categoryPct(Category::Collective), {15, 3}, Category::Collective,
            "bound by device collective communication", FrameworkAdvice::text("collectives", fw));
}

// The PyTorch profiler plugin's rules: on PyTorch runs; on a run of unknown framework (an Nsight export)
// they say whose rule they are; never on TensorFlow or JAX runs.
void pytorchRecommendations(RunAnalysis &ra, Framework fw) {
    if (fw != Framework::PyTorch && fw != Framework::Unknown) return;
    const std::string borrowed = fw == Framework::Unknown ? " (PyTorch profiler plugin rule)" : "";
    const double input = ra.categoryPct(Category::Input);
    if (input > 5)
        ra.findings.push_back(withEvidence(
            {"pt_dataloader", input >= 20 ? FindingSeverity::High : FindingSeverity::Medium,
             "High time cost on input data loading" + borrowed,
             formatPct(input) + " of step time is spent in the DataLoader (PyTorch profiler plugin: > 5%).",
             FrameworkAdvice::text("dataloader", Framework::PyTorch), {}, 0, 0},
            ra, Category::Input, 0.05));
    const double comm = ra.categoryPct(Category::Collective);
    if (comm > 10)
        ra.findings.push_back(withEvidence(
            {"pt_communication", comm >= 30 ? FindingSeverity::High : FindingSeverity::Medium, "High communication time" + borrowed,
             formatPct(comm) + " of step time is exposed communication (PyTorch profiler plugin: > 10%).",
             FrameworkAdvice::text("communication", Framework::PyTorch), {}, 0, 0},
            ra, Category::Collective, 0.05));
    if (ra.gpuTraced && ra.gpuBusyPct < 50 && !ra.steps.steps.empty())  // a CPU-only trace has no GPU to fill
        ra.findings.push_back({"pt_low_gpu_utilization", ra.gpuBusyPct < 25 ? FindingSeverity::High : FindingSeverity::Medium,
                               "Low GPU utilization" + borrowed,
                               "GPU kernels run during " + formatPct(ra.gpuBusyPct) +
                                   " of step time (PyTorch profiler plugin: < 50%).",
                               FrameworkAdvice::text("low_gpu_utilization", Framework::PyTorch),
                               {}, ra.steps.steps.front().start, ra.steps.steps.back().end});
}

void stageRules(RunAnalysis &ra, Framework fw) {
    struct Stage {
        Category c;
        const char *rule, *title, *topic;
    };
    static const Stage stages[] = {
        {Category::Callback, "callback_bound", "Slow per-step callbacks", "callback"},
        {Category::Checkpoint, "checkpoint_bound", "Checkpoints stall training", "checkpoint"},
        {Category::H2D, "h2d_exposed", "Exposed host-to-device copies", "h2d"},
        {Category::Compilation, "compilation", "Compilation during training", "compilation"},
    };
    for (const Stage &s : stages) {
        const double p = ra.categoryPct(s.c);
        if (p < 5) continue;
        ra.findings.push_back(withEvidence({s.rule, p >= 20 ? FindingSeverity::High : FindingSeverity::Medium, s.title,
                                            formatPct(p) + " of step time is exposed " + std::string(categoryName(s.c)) + ".",
                                            FrameworkAdvice::text(s.topic, fw), {}, 0, 0},
                                           ra, s.c, 0.02));
    }
    // Device gaps are summed over the GPUs: compare them with the step time of as many GPUs.
    std::set<int> gpus;
    for (const StreamGaps &s : ra.gaps.streams) gpus.insert(s.device);
    const double devices = double(std::max<size_t>(1, gpus.size()));
    const double total = double(ra.steps.totalNs()) * devices;
    if (ra.gpuTraced && total > 0 && double(ra.gaps.device.totalNs) > 0.10 * total) {
        std::string top = "nothing_traced";
        int64_t topNs = -1;
        for (const auto &[k, v] : ra.gaps.byHostActivityNs)
            if (v > topNs) top = k, topNs = v;
        const double hostWait = 100.0 * double(ra.gaps.device.byCauseNs[0]) / double(std::max<int64_t>(1, ra.gaps.device.totalNs));
        Finding f{"gpu_idle", ra.gaps.device.totalNs > 0.3 * total ? FindingSeverity::High : FindingSeverity::Medium, "GPU idle inside steps",
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
    if (cause == "input") return FrameworkAdvice::text("outlier_input", fw);
    return "Zoom to these steps and compare them with a typical step.";
}

void stepOutlierRules(RunAnalysis &ra, Framework fw) {
    const auto &steps = ra.steps.steps;
    // SageMaker StepOutlier at its defaults: once > 100 steps, outliers are > mean + 3 sigma; fires on > 10.
    if (steps.size() > 100) {
        double mean = 0, var = 0;
        for (const AnalysisStep &s : steps) mean += double(s.dur());
        mean /= double(steps.size());
        for (const AnalysisStep &s : steps) var += (double(s.dur()) - mean) * (double(s.dur()) - mean);
        const double limit = mean + 3 * std::sqrt(var / double(steps.size()));
        Finding f{"sm_step_outlier", FindingSeverity::Medium, "Step outliers (SageMaker StepOutlier)", "", 
                  "Find what runs in the outlier steps (checkpoints, evaluation, summaries) and make it asynchronous.", {}, 0, 0};
        for (const AnalysisStep &s : steps)
            if (double(s.dur()) > limit) {
                if (f.steps.empty()) f.startNs = s.start;
                f.endNs = s.end;
                f.steps.push_back(s.step);
            }
        if (f.steps.size() > 10) {
            f.detail = std::to_string(f.steps.size()) + " steps take longer than mean + 3 sigma (" +
                       std::to_string(int64_t(limit / 1e6)) + " ms); StepOutlier fires above 10.";
            ra.findings.push_back(std::move(f));
        }
    }
    if (ra.outliers.empty()) return;
    std::map<std::string, std::vector<int64_t>> byCause;
    for (const OutlierStep &o : ra.outliers) byCause[o.cause].push_back(o.step);
    for (const auto &[cause, list] : byCause) {
        Finding f{"outlier_steps", list.size() * 10 >= steps.size() ? FindingSeverity::Medium : FindingSeverity::Low,
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
    for (size_t k = 0; k < steps.size(); ++k)
        if (double(steps[k].dur()) > 1.5 * double(median)) slow.push_back(k);
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

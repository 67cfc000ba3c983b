#include "models/analysis/rules/projection_rules.h"

#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"
#include "models/analysis/engine/step_projection.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace stepscope {

Projection ProjectionRules::summarize(const RunAnalysis &ra, std::string category, std::string method,
                                      std::vector<int64_t> perStepNs) {
    Projection p;
    p.category = std::move(category);
    p.method = std::move(method);
    const size_t n = ra.steps.steps.size();
    int64_t projected = 0;
    for (int64_t v : perStepNs) projected += v;
    p.currentStepTimeMs = n ? double(ra.steps.totalNs()) / double(n) / 1e6 : 0;
    p.stepTimeMs = n ? double(projected) / double(n) / 1e6 : 0;
    p.speedup = p.stepTimeMs > 0 ? p.currentStepTimeMs / p.stepTimeMs : 1;
    if (ra.batchSize && p.stepTimeMs > 0) {
        p.samplesPerSecond = double(*ra.batchSize) / (p.stepTimeMs / 1e3);
        if (p.currentStepTimeMs > 0) p.currentSamplesPerSecond = double(*ra.batchSize) / (p.currentStepTimeMs / 1e3);
    }
    p.perStepNs = std::move(perStepNs);
    return p;
}

namespace {

std::string causeName(const std::vector<Category> &causes) {
    std::string s;
    for (Category c : causes) s += (s.empty() ? "" : "+") + std::string(categoryName(c));
    return s;
}

// Slow steps brought down to the median step: what removing whatever made them slow is worth.
std::optional<Projection> outlierProjection(const RunAnalysis &ra, const std::vector<int64_t> &listed) {
    const auto &steps = ra.steps.steps;
    if (steps.size() < 3 || listed.empty()) return std::nullopt;
    std::vector<int64_t> durs;
    for (const AnalysisStep &s : steps) durs.push_back(s.dur());
    std::nth_element(durs.begin(), durs.begin() + ptrdiff_t(durs.size() / 2), durs.end());
    const int64_t median = durs[durs.size() / 2];
    std::vector<int64_t> per;
    for (const AnalysisStep &s : steps) {
        const bool slow = std::find(listed.begin(), listed.end(), s.step) != listed.end();
        per.push_back(slow ? std::min(s.dur(), median) : s.dur());
    }
    return ProjectionRules::summarize(ra, std::string(rule_id::OutlierSteps), "outlier_steps_at_median", std::move(per));
}

} // namespace

void ProjectionRules::evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types) {
    if (ra.steps.steps.empty() || ra.steps.totalNs() <= 0) return;
    const StepProjector projector(ra, trace, types);
    std::map<std::string, Projection> byCause;  // several rules name the same cause: project it once
    auto projectionFor = [&](const std::vector<Category> &causes) -> const Projection & {
        const std::string name = causeName(causes);
        auto it = byCause.find(name);
        if (it == byCause.end()) {
            std::string method;
            std::vector<int64_t> per = projector.project(causes, method);
            it = byCause.emplace(name, summarize(ra, name, std::move(method), std::move(per))).first;
        }
        return it->second;
    };
    for (Finding &f : ra.findings) {
        if (f.rule == rule_id::OutlierSteps || f.rule == rule_id::SmStepOutlier) f.projection = outlierProjection(ra, f.steps);
        else if (const FindingRuleRecord *rule = FindingRuleBook::builtin().find(f.rule); rule && !rule->causes.empty())
            f.projection = projectionFor(rule->causes);
    }
    const std::optional<Category> bottleneck = categoryFromName(ra.bottleneck);
    if (bottleneck && *bottleneck != Category::DeviceCompute) ra.projection = projectionFor({*bottleneck});
}

std::vector<const Projection *> rankedProjections(const RunAnalysis &ra) {
    std::vector<const Projection *> out;
    auto add = [&](const std::optional<Projection> &p) {
        if (p && std::none_of(out.begin(), out.end(), [&](const Projection *o) { return o->category == p->category; }))
            out.push_back(&*p);
    };
    add(ra.projection);
    for (const Finding &f : ra.findings) add(f.projection);
    std::stable_sort(out.begin(), out.end(), [](const Projection *a, const Projection *b) { return a->speedup > b->speedup; });
    return out;
}

std::string describeProjection(const Projection &p) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s: step %.1f \u2192 %.1f ms, %.2f\u00d7 samples/s", p.category.c_str(),
                  p.currentStepTimeMs, p.stepTimeMs, p.speedup);
    std::string s = buf;
    if (p.samplesPerSecond && p.currentSamplesPerSecond) {
        std::snprintf(buf, sizeof buf, " (%.0f \u2192 %.0f)", *p.currentSamplesPerSecond, *p.samplesPerSecond);
        s += buf;
    }
    return s;
}

} // namespace stepscope

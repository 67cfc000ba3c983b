#include "models/analysis/report/run_comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace stepscope {

namespace {

ComparedRun describe(const RunReport &r, const std::string &label) {
    ComparedRun c;
    c.label = label;
    c.run = r.run.name;
    c.steps = int64_t(r.analysis.steps.steps.size());
    c.stepsFromMarkers = r.stepsFromMarkers;
    c.stepTime = r.stepTime;
    c.samplesPerSecond = r.samplesPerSecond;
    c.batchSize = r.batchSize;
    c.bottleneck = r.analysis.bottleneck;
    c.gpuBusyPct = r.analysis.gpuBusyPct;
    c.gpuTraced = r.analysis.gpuTraced;
    for (const AnalysisStep &s : r.analysis.steps.steps) c.stepStarts.push_back({s.step, s.start});
    return c;
}

double perStep(int64_t ns, int64_t steps) { return steps > 0 ? double(ns) / 1e6 / double(steps) : 0.0; }

// The rules that found something: an "info" finding says the cause is absent ("Not input-bound").
// Each rule's highest severity among the run's findings (info ones left out).
std::map<std::string, FindingSeverity> rules(const RunAnalysis &a, std::map<std::string, std::string> &titles) {
    std::map<std::string, FindingSeverity> out;
    for (const Finding &f : a.findings)
        if (f.severity != FindingSeverity::Info) {
            auto [it, fresh] = out.emplace(f.rule, f.severity);
            if (!fresh) it->second = std::max(it->second, f.severity);
            titles.emplace(f.rule, f.title);
        }
    return out;
}

} // namespace

std::string RunComparison::Reduced::text() const {
    return rule + " (" + findingSeverityName(from) + " \u2192 " + findingSeverityName(to) + ")";
}

const char *RunComparison::statusName(OpDelta::Status s) {
    switch (s) {
    case OpDelta::Status::Same: return "same";
    case OpDelta::Status::Changed: return "changed";
    case OpDelta::Status::New: return "new";
    case OpDelta::Status::Gone: return "gone";
    }
    return "same";
}

RunComparison RunComparison::compare(const RunReport &base, const std::string &baseLabel, const RunReport &next,
                                     const std::string &nextLabel) {
    RunComparison c;
    c.base = describe(base, baseLabel);
    c.next = describe(next, nextLabel);
    if (c.base.stepTime.meanMs > 0)
        c.stepTimeChangePct = 100.0 * (c.next.stepTime.meanMs - c.base.stepTime.meanMs) / c.base.stepTime.meanMs;
    if (c.base.samplesPerSecond && c.next.samplesPerSecond && *c.base.samplesPerSecond > 0)
        c.samplesPerSecondChangePct = 100.0 * (*c.next.samplesPerSecond - *c.base.samplesPerSecond) / *c.base.samplesPerSecond;

    for (int k = 0; k < kCategoryCount; ++k) {
        const Category cat = Category(k);
        c.categories.push_back({cat, perStep(base.analysis.categoryNs(cat), c.base.steps),
                                perStep(next.analysis.categoryNs(cat), c.next.steps)});
    }

    std::map<std::pair<std::string, int>, OpDelta> ops;  // by (name, device)
    auto add = [&ops](const std::vector<OpStat> &stats, bool isBase) {
        for (const OpStat &o : stats) {
            OpDelta &d = ops[{o.name, o.device}];
            d.name = o.name;
            d.device = o.device;
            (isBase ? d.baseCount : d.newCount) += o.count;
            (isBase ? d.baseTotalMs : d.newTotalMs) += double(o.totalNs) / 1e6;
        }
    };
    add(base.analysis.ops, true);
    add(next.analysis.ops, false);
    c.ops.reserve(ops.size());
    for (auto &[key, d] : ops) {
        d.baseMsPerStep = c.base.steps > 0 ? d.baseTotalMs / double(c.base.steps) : 0.0;
        d.newMsPerStep = c.next.steps > 0 ? d.newTotalMs / double(c.next.steps) : 0.0;
        const double change = std::abs(d.deltaMs());
        if (d.baseCount == 0) d.status = OpDelta::Status::New;
        else if (d.newCount == 0) d.status = OpDelta::Status::Gone;
        else if (change <= std::max(kSameMs, kSameShare * std::max(d.baseMsPerStep, d.newMsPerStep))) d.status = OpDelta::Status::Same;
        else d.status = OpDelta::Status::Changed;
        c.ops.push_back(std::move(d));
    }
    std::stable_sort(c.ops.begin(), c.ops.end(), [](const OpDelta &a, const OpDelta &b) {
        const double x = std::abs(a.deltaMs()), y = std::abs(b.deltaMs());
        if (x != y) return x > y;
        return std::max(a.baseTotalMs, a.newTotalMs) > std::max(b.baseTotalMs, b.newTotalMs);
    });

    const auto before = rules(base.analysis, c.titles), after = rules(next.analysis, c.titles);
    for (const auto &[r, severity] : before) {
        const auto now = after.find(r);
        if (now == after.end()) c.resolved.push_back(r);
        else if (now->second < severity) c.reduced.push_back({r, severity, now->second});
        else c.kept.push_back(r);
    }
    for (const auto &[r, severity] : after)
        if (!before.count(r)) c.added.push_back(r);

    for (const ComparedRun *side : {&c.base, &c.next})
        if (!side->stepsFromMarkers)
            c.notes.push_back((side == &c.base ? "base" : "new") + std::string(" (") + side->label +
                              ") has no step markers: its whole trace is compared as one step");
    if (c.base.steps != c.next.steps)
        c.notes.push_back("the runs have " + std::to_string(c.base.steps) + " and " + std::to_string(c.next.steps) +
                          " steps: every figure is a mean per step");
    if (!c.samplesPerSecondChangePct)
        c.notes.push_back("no batch size on " +
                          std::string(!c.base.batchSize && !c.next.batchSize ? "either side" : !c.base.batchSize ? "the base" : "the new run") +
                          ": throughput not compared (give --batch-size; in the window, set the Batch size before comparing)");
    return c;
}

} // namespace stepscope

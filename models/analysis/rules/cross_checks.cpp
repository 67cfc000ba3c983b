#include "models/analysis/rules/cross_checks.h"

#include "models/analysis/rules/finding_rule_ids.h"

#include "models/analysis/rules/finding_rules.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace stepscope {
namespace {

namespace fs = std::filesystem;

// "<host>" of "<host>.overview_page.pb", "<host>.xplane.pb", "<host>.trace.json.gz".
std::string hostOf(const std::string &path) {
    const std::string name = fs::path(path).filename().string();
    return name.substr(0, name.find('.'));
}

std::string points(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

const char *toolTitle(const std::string &tool) { return tool == "tensorflow_profiler" ? "TensorFlow profiler" : tool.c_str(); }

} // namespace

std::string CrossChecks::describe(const CrossCheck &c) {
    std::string out = std::string(toolTitle(c.tool)) + ": ";
    out += c.inputPct ? points(*c.inputPct) + " % input-bound" : c.kind + " (no input figure)";
    return out + " — Stepscope: " + points(c.stepscopeInputPct) + " %";
}

void CrossChecks::evaluate(RunAnalysis &ra, const SessionReader &reader, const RunRow &run) {
    const std::vector<ToolVerdictRow> rows = reader.toolVerdicts();
    if (rows.empty()) return;
    const std::string trace = reader.sourcePath(run.sourceId);
    const fs::path folder = fs::path(trace).parent_path();
    std::vector<const ToolVerdictRow *> inFolder, sameHost;
    for (const ToolVerdictRow &r : rows) {
        if (fs::path(r.path).parent_path() != folder) continue;
        inFolder.push_back(&r);
        if (hostOf(r.path) == hostOf(trace)) sameHost.push_back(&r);
    }
    const double ours = ra.categoryPct(Category::Input) + ra.categoryPct(Category::H2D);
    for (const ToolVerdictRow *r : sameHost.empty() ? inFolder : sameHost) {
        CrossCheck c{r->tool, r->kind, r->path, r->inputPct, r->verdict, r->deviceType, r->topOpsJson, ours, std::nullopt};
        if (c.inputPct) c.agree = std::abs(*c.inputPct - ours) <= kAgreePoints;
        ra.crossChecks.push_back(c);
    }
    // One finding for the first disagreeing figure (overview and input pipeline state the same one).
    for (const CrossCheck &c : ra.crossChecks) {
        if (!c.agree || *c.agree) continue;
        ra.findings.push_back({std::string(rule_id::TfProfilerDisagrees), FindingSeverity::Medium, "TensorFlow profiler and Stepscope disagree on input time",
                               describe(c) + ": " + points(std::abs(*c.inputPct - ours)) + " points apart (more than " +
                                   points(kAgreePoints) + "). Steps: " + std::string(stepSourceName(ra.steps.source)) + " (" +
                                   std::to_string(ra.steps.steps.size()) + "); " + fs::path(c.file).filename().string() +
                                   (c.verdict.empty() ? std::string() : " says: \"" + c.verdict + "\""),
                               "Check that both look at the same steps (step markers, profiled range) and whether "
                               "input time happens where this trace does not record it.",
                               {}, 0, 0});
        break;
    }
}

} // namespace stepscope

// ReportFormatter, continued: the human-readable formats (text for terminals, markdown for issues and
// reports). The JSON contract lives in report_formatter.cpp.

#include "models/analysis/report/report_formatter.h"
#include "models/analysis/rules/cross_checks.h"

#include "models/analysis/engine/memory_headroom.h"
#include "models/analysis/rules/projection_rules.h"
#include "models/text/printable_text.h"

#include <string_view>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace stepscope {

namespace {

// Names come from files: control characters become visible \xNN so they cannot drive a terminal,
// and markdown gets a backslash before every character markdown or HTML would interpret.
std::string shown(std::string_view s) { return printableText(s); }

std::string md(std::string_view s) { return markdownText(s); }

std::string fmt(const char *f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string ms(int64_t ns) { return fmt("%.2f", double(ns) / 1e6); }

std::string stepList(const std::vector<int64_t> &steps) {
    std::string s;
    for (size_t i = 0; i < steps.size() && i < 12; ++i) s += (i ? ", " : "") + std::to_string(steps[i]);
    if (steps.size() > 12) s += ", ... (" + std::to_string(steps.size()) + " steps)";
    return s;
}

std::string batchSizeText(const RunReport &r) {
    if (!r.batchSize) return {};
    std::string s = std::to_string(*r.batchSize) + " (" + r.batchSizeSource;
    if (!r.analysis.batchSizeEvidence.empty()) s += ": " + r.analysis.batchSizeEvidence;
    return s + ")";
}

// "grid [128,1,1], block [256,1,1], registers/thread 32, shared memory 0"; empty when none recorded.
std::string kernelText(const KernelDetails &k) {
    std::string s;
    auto add = [&s](const std::string &v, const char *prefix, const char *suffix) {
        if (v.empty()) return;
        s += (s.empty() ? "" : ", ") + std::string(prefix) + v + suffix;
    };
    add(k.grid, "grid ", "");
    add(k.block, "block ", "");
    add(k.registers, "registers/thread ", "");
    add(k.sharedMemory, "shared memory ", "");
    return s;
}

std::string bottleneckLine(const RunAnalysis &a) {
    std::string s = a.bottleneck;
    if (!a.bottleneckDetail.empty()) s += " (" + a.bottleneckDetail + ")";
    return s;
}

std::string memoryLine(const RunAnalysis &a) {
    if (!a.memory)
        return "no memory data (record with profile_memory=True, or add an nvidia-smi log, to know how large a batch fits)";
    const std::string from = a.memory->source == "allocator" ? "allocator events" : "nvidia-smi memory.used";
    return MemoryHeadroom::describe(*a.memory) + " [" + from + "]";
}

} // namespace

std::string ReportFormatter::text(const Report &report) {
    std::ostringstream out;
    out << "Stepscope report\n\nSources (" << report.sources.size() << "):\n";
    for (const SourceRow &s : report.sources)
        out << "  " << shown(s.path) << "  [" << s.format << ", " << s.status << "]  " << s.events << " events, "
            << s.warnings << " warnings\n";
    if (report.skippedFiles) out << "  (" << report.skippedFiles << " files skipped: see the import log)\n";
    if (!report.note.empty()) out << "\n" << report.note << "\n";
    out << jobText(report);
    for (const RunReport &r : report.runs) {
        const RunAnalysis &a = r.analysis;
        out << "\nRun " << shown(r.run.name);
        if (!r.run.framework.empty()) out << " (" << shown(r.run.framework) << ")";
        if (!r.run.device.empty()) out << " on " << shown(r.run.device);
        out << "\n  events: " << r.events << " on " << r.tracks << " tracks\n";
        if (!r.stepsFromMarkers) out << "  no step markers in this trace: the whole trace is reported as one step (from its first GPU work, "
                                           "when it has any: set-up before it is in no step)\n";
        if (a.steps.source == StepSource::TfTrainFunction) {
            out << "  no step markers: each execution of the TensorFlow training function is a step\n";
            // Steps grouped under the function's run (FunctionRun) leave the eager wrapper between them.
            if (const double between = a.steps.meanBetweenStepsNs(); between > 0)
                out << "  between steps: " << fmt("%.2f", between / 1e6)
                    << " ms each (the eager wrapper and Python around each run of the function; TensorFlow counts it "
                       "in no step)\n";
        }
        out << "  steps: " << r.steps.size() << "\n";
        if (r.steps.empty()) continue;
        out << "  step time (ms): mean " << fmt("%.2f", r.stepTime.meanMs) << ", median " << fmt("%.2f", r.stepTime.medianMs)
            << ", p95 " << fmt("%.2f", r.stepTime.p95Ms) << ", min " << fmt("%.2f", r.stepTime.minMs) << ", max "
            << fmt("%.2f", r.stepTime.maxMs) << "\n";
        if (r.batchSize) out << "  batch size: " << batchSizeText(r) << "\n";
        if (r.samplesPerSecond) out << "  throughput: " << fmt("%.1f", *r.samplesPerSecond) << " samples/s\n";
        if (a.gpuTraced) out << "  GPU busy: " << fmt("%.1f", a.gpuBusyPct) << "% of step time\n";
        else out << "  GPU busy: n/a, " << a.gpuNote() << "\n";
        if (a.kernels) {
            const KernelStats &k = *a.kernels;
            out << "  kernels: " << k.count << ", median " << fmt("%.1f", k.medianUs) << " us, " << fmt("%.1f", k.shortPct)
                << "% shorter than 10 us";
            if (k.launchDelayP50Us)
                out << ", launch delay p50 " << fmt("%.1f", *k.launchDelayP50Us) << " us, p95 " << fmt("%.1f", *k.launchDelayP95Us) << " us";
            int64_t depth = 0;
            for (const StreamQueueDepth &d : k.queueDepthMax) depth = std::max(depth, d.maxDepth);
            if (depth > 0) out << ", up to " << depth << " queued on a stream";
            out << "\n";
        }
        if (a.criticalPath && a.criticalPath->totalLengthNs > 0) {
            const CriticalPath &p = *a.criticalPath;
            out << "  critical path: " << fmt("%.2f", p.meanLengthMs()) << " ms per step (" << fmt("%.0f", 100.0 * p.meanLengthMs() / r.stepTime.meanMs)
                << "% of the step):";
            std::vector<std::pair<int64_t, int>> parts;
            for (int c = 0; c < kCategoryCount; ++c)
                if (const int t = a.categoryType[size_t(c)]; t >= 0 && size_t(t) < p.totalPerTypeNs.size() && p.totalPerTypeNs[size_t(t)] > 0)
                    parts.emplace_back(p.totalPerTypeNs[size_t(t)], c);
            std::sort(parts.rbegin(), parts.rend());
            for (size_t k = 0; k < parts.size() && k < 4; ++k)
                out << (k ? ", " : " ") << kCategoryNames[size_t(parts[k].second)] << " "
                    << fmt("%.0f", 100.0 * double(parts[k].first) / double(p.totalLengthNs)) << "%";
            if (!p.topNames.empty()) out << "; longest on it: " << shown(p.topNames.front().name);
            out << "\n";
        }
        out << "  bottleneck: " << shown(bottleneckLine(a)) << "\n    " << shown(a.bottleneckEvidence) << "\n";
        if (const auto ranked = rankedProjections(a); !ranked.empty()) {
            out << "  what fixing it is worth (projected mean step, biggest gain first):\n";
            for (const Projection *p : ranked) out << "    " << shown(describeProjection(*p)) << "  [" << p->method << "]\n";
        }
        out << "  GPU memory: " << shown(memoryLine(a)) << "\n";
        out << "  breakdown (% of step time, mean ms per step):\n";
        const double n = double(r.steps.size());
        for (int c = 0; c < kCategoryCount; ++c) {
            const int64_t ns = a.categoryNs(Category(c));
            if (ns == 0) continue;
            char line[128];
            std::snprintf(line, sizeof line, "    %-15s %6.1f%%  %9.2f ms\n", std::string(kCategoryNames[size_t(c)]).c_str(),
                          a.categoryPct(Category(c)), double(ns) / 1e6 / n);
            out << line;
        }
        if (a.presetBreakdown) {
            out << "  " << a.presetBreakdown->preset << " preset:\n";
            for (const auto &[label, ns] : a.presetBreakdown->byLabel(a.presetBreakdown->totalNs))
                out << "    " << shown(label) << ": " << fmt("%.1f", 100.0 * double(ns) / double(std::max<int64_t>(1, a.presetBreakdown->stepTotalNs)))
                    << "%\n";
        }
        const GapTotals &g = a.gaps.device;
        if (a.gpuTraced)  // a CPU-only trace has no GPU to be idle: no gap line, not "0 gaps"
            out << "  GPU idle gaps: " << g.count << ", " << ms(g.totalNs) << " ms (host_wait " << ms(g.byCauseNs[0])
                << ", kernel_wait " << ms(g.byCauseNs[1]) << ", other " << ms(g.byCauseNs[2]) << ")\n";
        if (!a.gaps.byHostActivityNs.empty()) {
            out << "    host during gaps:";
            for (const auto &[k, v] : a.gaps.byHostActivityNs) out << " " << k << " " << ms(v) << " ms;";
            out << "\n";
        }
        for (size_t i = 0; i < a.gaps.top.size() && i < 5; ++i) {
            const GpuGap &gap = a.gaps.top[i];
            out << "    " << ms(gap.dur) << " ms before " << shown(gap.stream) << " (" << gapCauseName(gap.cause) << ", host: "
                << shown(gap.hostActivity);
            if (!gap.overlapping.empty()) out << ", in " << shown(gap.overlapping.front());
            out << ")\n";
        }
        if (a.gpuTraced) out << "  top GPU ops (total ms, count):\n";
        int listed = 0;
        for (const OpStat &o : a.ops)
            if (!o.host() && listed++ < 5) {
                out << "    " << ms(o.totalNs) << "  x" << o.count << "  " << shown(o.name.substr(0, 90)) << "\n";
                if (const std::string k = kernelText(o.kernel); !k.empty()) out << "      " << k << "\n";
                if (const auto &e = o.efficiency) {
                    out << "      " << shown(e->op) << " " << e->dtype << ": "
                        << (e->flops > 0 ? fmt("%.1f TFLOPS", e->achievedTflops()) : fmt("%.0f GB/s", e->achievedGbps()));
                    if (e->pctOfPeak) out << ", " << fmt("%.0f", *e->pctOfPeak) << "% of peak, " << e->bound << "-bound";
                    else out << " (no peak known for this device)";
                    out << "\n";
                }
            }
        for (const CollectiveStat &c : a.collectives) {
            out << "  " << c.name << ": " << c.count << " calls, " << ms(c.timeNs) << " ms, " << ms(c.exposedNs) << " ms exposed";
            if (c.busbwGbps) out << ", bus bandwidth " << fmt("%.1f", *c.busbwGbps) << " GB/s (" << *c.groupSize << " GPUs)";
            else if (c.sized == 0) out << ", sizes not recorded";
            out << "\n";
        }
        out << "  top host ops (self ms, count):\n";
        std::vector<const OpStat *> host;
        for (const OpStat &o : a.ops)
            if (o.host()) host.push_back(&o);
        std::sort(host.begin(), host.end(), [](const OpStat *x, const OpStat *y) { return x->selfNs > y->selfNs; });
        for (size_t i = 0; i < host.size() && i < 5; ++i)
            out << "    " << ms(host[i]->selfNs) << "  x" << host[i]->count << "  " << shown(host[i]->name.substr(0, 90)) << "\n";
        for (const CrossCheck &c : a.crossChecks)
            if (c.inputPct) out << "  " << shown(CrossChecks::describe(c)) << " (" << c.kind << ")\n";
        out << "  findings:\n";
        for (const Finding &f : a.findings) {
            out << "    [" << findingSeverityName(f.severity) << "] " << shown(f.title) << " (" << f.rule << ")\n      " << shown(f.detail) << "\n";
            if (!f.recommendation.empty()) out << "      -> " << shown(f.recommendation) << "\n";
            if (!f.steps.empty()) out << "      steps: " << stepList(f.steps) << "\n";
            if (f.projection) out << "      worth: " << shown(describeProjection(*f.projection)) << "\n";
        }
    }
    return out.str();
}

std::string ReportFormatter::markdown(const Report &report) {
    std::ostringstream out;
    out << "# Stepscope report\n\n## Sources\n\n| file | format | status | events | warnings |\n|---|---|---|---:|---:|\n";
    for (const SourceRow &s : report.sources)
        out << "| " << md(s.path) << " | " << s.format << " | " << s.status << " | " << s.events << " | " << s.warnings << " |\n";
    if (!report.note.empty()) out << "\n**Note:** " << md(report.note) << "\n";
    out << jobMarkdown(report);
    for (const RunReport &r : report.runs) {
        const RunAnalysis &a = r.analysis;
        out << "\n## Run " << md(r.run.name) << "\n\n";
        out << "- framework: " << (r.run.framework.empty() ? std::string("unknown") : md(r.run.framework)) << "\n";
        out << "- events: " << r.events << " on " << r.tracks << " tracks\n";
        out << "- steps: " << r.steps.size() << (r.stepsFromMarkers ? "" : " (no step markers: whole trace)")
            << (a.steps.source == StepSource::TfTrainFunction ? " (executions of the TensorFlow training function)" : "") << "\n";
        if (r.steps.empty()) continue;
        out << "- **bottleneck: " << md(bottleneckLine(a)) << "** — " << md(a.bottleneckEvidence) << "\n";
        if (a.gpuTraced) out << "- GPU busy: " << fmt("%.1f", a.gpuBusyPct) << "% of step time\n";
        else out << "- GPU busy: n/a, " << md(a.gpuNote()) << "\n";
        if (r.batchSize) out << "- batch size: " << batchSizeText(r) << "\n";
        if (r.samplesPerSecond) out << "- throughput: " << fmt("%.1f", *r.samplesPerSecond) << " samples/s\n";
        for (const Projection *p : rankedProjections(a))
            out << "- if fixed: " << md(describeProjection(*p)) << " (" << p->method << ")\n";
        out << "- GPU memory: " << md(memoryLine(a)) << "\n";
        out << "\n| step time (ms) | mean | median | p95 | min | max |\n|---|---:|---:|---:|---:|---:|\n";
        out << "| | " << fmt("%.2f", r.stepTime.meanMs) << " | " << fmt("%.2f", r.stepTime.medianMs) << " | "
            << fmt("%.2f", r.stepTime.p95Ms) << " | " << fmt("%.2f", r.stepTime.minMs) << " | " << fmt("%.2f", r.stepTime.maxMs)
            << " |\n";
        out << "\n| category | % of step time | ms per step |\n|---|---:|---:|\n";
        for (int c = 0; c < kCategoryCount; ++c)
            out << "| " << kCategoryNames[size_t(c)] << " | " << fmt("%.1f", a.categoryPct(Category(c))) << " | "
                << fmt("%.2f", double(a.categoryNs(Category(c))) / 1e6 / double(r.steps.size())) << " |\n";
        const GapTotals &g = a.gaps.device;
        if (a.gpuTraced) {
            out << "\nGPU idle: " << g.count << " gaps, " << ms(g.totalNs) << " ms (host wait " << ms(g.byCauseNs[0])
                << " ms, kernel wait " << ms(g.byCauseNs[1]) << " ms, other " << ms(g.byCauseNs[2]) << " ms).\n";
            out << "\n| top GPU op | count | total ms | grid | block | registers/thread | shared memory |\n"
                   "|---|---:|---:|---|---|---:|---:|\n";
        }
        int listed = 0;
        for (const OpStat &o : a.ops)
            if (!o.host() && listed++ < 10)
                out << "| " << md(o.name.substr(0, 80)) << " | " << o.count << " | " << ms(o.totalNs) << " | " << o.kernel.grid
                    << " | " << o.kernel.block << " | " << o.kernel.registers << " | " << o.kernel.sharedMemory << " |\n";
        for (const CrossCheck &c : a.crossChecks)
            if (c.inputPct) out << "\n" << md(CrossChecks::describe(c)) << " (" << c.kind << ")\n";
        out << "\n### Findings\n\n";
        for (const Finding &f : a.findings) {
            out << "- **[" << findingSeverityName(f.severity) << "] " << md(f.title) << "** (`" << f.rule << "`): " << md(f.detail);
            if (!f.recommendation.empty()) out << " *Recommendation:* " << md(f.recommendation);
            if (!f.steps.empty()) out << " Steps: " << stepList(f.steps) << ".";
            if (f.projection) out << " *Worth:* " << md(describeProjection(*f.projection)) << ".";
            out << "\n";
        }
    }
    return out.str();
}

} // namespace stepscope

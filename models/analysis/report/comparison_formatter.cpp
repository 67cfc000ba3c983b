#include "models/analysis/report/comparison_formatter.h"

#include "models/text/printable_text.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace stepscope {

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }
double round3(double v) { return std::round(v * 1000.0) / 1000.0; }
QJsonValue orNull(const std::optional<double> &v) { return v ? QJsonValue(round3(*v)) : QJsonValue(); }

std::string cmpFmt(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string signedMs(double v) { return (v > 0 ? "+" : "") + cmpFmt("%.2f", v); }
std::string signedPct(double v) { return (v > 0 ? "+" : "") + cmpFmt("%.1f", v) + " %"; }

QJsonObject sideJson(const ComparedRun &r) {
    return {{"label", qs(r.label)}, {"run", qs(r.run)}, {"steps", qint64(r.steps)},
            {"steps_from_markers", r.stepsFromMarkers},
            {"step_time_ms", QJsonObject{{"mean", round3(r.stepTime.meanMs)}, {"median", round3(r.stepTime.medianMs)}}},
            {"samples_per_s", orNull(r.samplesPerSecond)},
            {"batch_size", r.batchSize ? QJsonValue(qint64(*r.batchSize)) : QJsonValue()},
            {"bottleneck", qs(r.bottleneck)},
            {"gpu_busy_pct", r.gpuTraced ? QJsonValue(round3(r.gpuBusyPct)) : QJsonValue()}};
}

QJsonObject titlesJson(const std::map<std::string, std::string> &titles) {
    QJsonObject o;
    for (const auto &[rule, title] : titles) o[qs(rule)] = qs(title);
    return o;
}

QJsonArray strings(const std::vector<std::string> &v) {
    QJsonArray a;
    for (const std::string &s : v) a.append(qs(s));
    return a;
}

std::string join(const std::vector<std::string> &v, const char *none = "none") {
    if (v.empty()) return none;
    std::string out;
    for (const std::string &s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

QJsonArray reducedJson(const RunComparison &c) {
    QJsonArray a;
    for (const RunComparison::Reduced &r : c.reduced)
        a.append(QJsonObject{{"rule", qs(r.rule)}, {"from", findingSeverityName(r.from)}, {"to", findingSeverityName(r.to)}});
    return a;
}

// The resolved findings and, counted with them, the reduced ones: "a, b; reduced: c (high → low)".
std::string resolvedText(const RunComparison &c) {
    std::vector<std::string> reduced;
    for (const RunComparison::Reduced &r : c.reduced) reduced.push_back(r.text());
    if (reduced.empty()) return join(c.resolved);
    return (c.resolved.empty() ? std::string() : join(c.resolved) + "; ") + "reduced: " + join(reduced);
}

std::string speedText(const RunComparison &c) {
    if (c.next.stepTime.meanMs <= 0 || c.base.stepTime.meanMs <= 0) return {};
    const double x = c.base.stepTime.meanMs / c.next.stepTime.meanMs;
    return x >= 1 ? cmpFmt("%.2f× faster", x) : cmpFmt("%.2f× slower", 1 / x);
}

std::string sideLine(const ComparedRun &r) {
    std::string s = printableText(r.label) + " (run " + printableText(r.run) + "): " + std::to_string(r.steps) + " step" +
                    (r.steps == 1 ? "" : "s") + ", mean " + cmpFmt("%.2f", r.stepTime.meanMs) + " ms (median " +
                    cmpFmt("%.2f", r.stepTime.medianMs) + ")";
    if (r.samplesPerSecond) s += ", " + cmpFmt("%.1f", *r.samplesPerSecond) + " samples/s";
    if (r.gpuTraced) s += ", GPU busy " + cmpFmt("%.1f", r.gpuBusyPct) + " %";
    return s + ", bottleneck " + r.bottleneck;
}

std::string opName(const OpDelta &o) { return o.host() ? "host" : "GPU " + std::to_string(o.device); }

} // namespace

std::string ComparisonFormatter::json(const RunComparison &c) {
    QJsonArray categories;
    for (const CategoryDelta &d : c.categories)
        categories.append(QJsonObject{{"category", qs(std::string(categoryName(d.category)))}, {"base_ms", round3(d.baseMs)},
                                      {"new_ms", round3(d.newMs)}, {"delta_ms", round3(d.deltaMs())}});
    QJsonArray ops;
    for (const OpDelta &o : c.ops)
        ops.append(QJsonObject{{"name", qs(o.name)}, {"side", o.host() ? "host" : "device"},
                               {"device", o.host() ? QJsonValue() : QJsonValue(o.device)},
                               {"base_count", qint64(o.baseCount)}, {"new_count", qint64(o.newCount)},
                               {"base_total_ms", round3(o.baseTotalMs)}, {"new_total_ms", round3(o.newTotalMs)},
                               {"base_ms_per_step", round3(o.baseMsPerStep)}, {"new_ms_per_step", round3(o.newMsPerStep)},
                               {"delta_ms", round3(o.deltaMs())}, {"status", RunComparison::statusName(o.status)}});
    QJsonObject root{{"stepscope_compare", 1},
                     {"base", sideJson(c.base)},
                     {"new", sideJson(c.next)},
                     {"step_time_change_pct", round3(c.stepTimeChangePct)},
                     {"samples_per_s_change_pct", orNull(c.samplesPerSecondChangePct)},
                     {"categories", categories},
                     {"ops", ops},
                     {"findings", QJsonObject{{"resolved", strings(c.resolved)}, {"reduced", reducedJson(c)},
                                              {"new", strings(c.added)}, {"kept", strings(c.kept)},
                                              {"titles", titlesJson(c.titles)}}},
                     {"notes", strings(c.notes)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string ComparisonFormatter::text(const RunComparison &c, size_t topOps) {
    std::ostringstream out;
    out << "Stepscope compare\n\n  base: " << sideLine(c.base) << "\n  new:  " << sideLine(c.next) << "\n\n";
    out << "  step time: " << cmpFmt("%.2f", c.base.stepTime.meanMs) << " → " << cmpFmt("%.2f", c.next.stepTime.meanMs) << " ms ("
        << signedPct(c.stepTimeChangePct) << (speedText(c).empty() ? "" : ", " + speedText(c)) << ")\n";
    if (c.samplesPerSecondChangePct)
        out << "  throughput: " << cmpFmt("%.1f", *c.base.samplesPerSecond) << " → " << cmpFmt("%.1f", *c.next.samplesPerSecond)
            << " samples/s (" << signedPct(*c.samplesPerSecondChangePct) << ")\n";
    out << "\n  per step (ms)        base        new      delta\n";
    for (const CategoryDelta &d : c.categories) {
        if (d.baseMs == 0 && d.newMs == 0) continue;
        char line[128];
        std::snprintf(line, sizeof line, "    %-15s %9.2f  %9.2f  %9s\n", std::string(categoryName(d.category)).c_str(), d.baseMs,
                      d.newMs, signedMs(d.deltaMs()).c_str());
        out << line;
    }
    out << "\n  ops, biggest change per step first (ms per step, base → new):\n";
    size_t shown = 0;
    for (const OpDelta &o : c.ops) {
        if (shown++ == topOps) break;
        char line[96];
        std::snprintf(line, sizeof line, "    %9s  %-7s  %8.2f → %8.2f  ", signedMs(o.deltaMs()).c_str(),
                      RunComparison::statusName(o.status), o.baseMsPerStep, o.newMsPerStep);
        // Kernel names run to hundreds of characters: the text page shows their first 96.
        const std::string name = printableText(o.name);
        out << line << (name.size() > 96 ? name.substr(0, 95) + "…" : name) << "  [" << opName(o) << "]\n";
    }
    out << "\n  findings resolved: " << resolvedText(c) << "\n  findings new: " << join(c.added)
        << "\n  findings kept: " << join(c.kept) << "\n";
    for (const std::string &n : c.notes) out << "  note: " << printableText(n) << "\n";
    return out.str();
}

std::string ComparisonFormatter::markdown(const RunComparison &c, size_t topOps) {
    std::ostringstream out;
    out << "# Stepscope compare\n\n";
    out << "| | base | new | change |\n|---|---|---|---:|\n";
    out << "| trace | " << markdownText(c.base.label) << " | " << markdownText(c.next.label) << " | |\n";
    out << "| run | " << markdownText(c.base.run) << " | " << markdownText(c.next.run) << " | |\n";
    out << "| steps | " << c.base.steps << " | " << c.next.steps << " | |\n";
    out << "| mean step time (ms) | " << cmpFmt("%.2f", c.base.stepTime.meanMs) << " | " << cmpFmt("%.2f", c.next.stepTime.meanMs)
        << " | **" << signedPct(c.stepTimeChangePct) << "** " << speedText(c) << " |\n";
    out << "| median step time (ms) | " << cmpFmt("%.2f", c.base.stepTime.medianMs) << " | " << cmpFmt("%.2f", c.next.stepTime.medianMs)
        << " | |\n";
    auto sps = [](const ComparedRun &r) { return r.samplesPerSecond ? cmpFmt("%.1f", *r.samplesPerSecond) : std::string("n/a"); };
    out << "| samples/s | " << sps(c.base) << " | " << sps(c.next) << " | "
        << (c.samplesPerSecondChangePct ? signedPct(*c.samplesPerSecondChangePct) : std::string("n/a")) << " |\n";
    out << "| bottleneck | " << c.base.bottleneck << " | " << c.next.bottleneck << " | |\n\n";
    out << "## Time per step by category (ms)\n\n| category | base | new | delta |\n|---|---:|---:|---:|\n";
    for (const CategoryDelta &d : c.categories) {
        if (d.baseMs == 0 && d.newMs == 0) continue;
        out << "| " << categoryName(d.category) << " | " << cmpFmt("%.2f", d.baseMs) << " | " << cmpFmt("%.2f", d.newMs) << " | "
            << signedMs(d.deltaMs()) << " |\n";
    }
    out << "\n## Biggest op changes (ms per step)\n\n| op | side | status | base | new | delta |\n|---|---|---|---:|---:|---:|\n";
    size_t shown = 0;
    for (const OpDelta &o : c.ops) {
        if (shown++ == topOps) break;
        out << "| " << markdownText(o.name) << " | " << opName(o) << " | " << RunComparison::statusName(o.status) << " | "
            << cmpFmt("%.2f", o.baseMsPerStep) << " | " << cmpFmt("%.2f", o.newMsPerStep) << " | " << signedMs(o.deltaMs()) << " |\n";
    }
    out << "\n## Findings\n\n- resolved: " << resolvedText(c) << "\n- new: " << join(c.added) << "\n- kept: " << join(c.kept)
        << "\n";
    if (!c.notes.empty()) {
        out << "\n";
        for (const std::string &n : c.notes) out << "> " << markdownText(n) << "\n";
    }
    return out.str();
}

} // namespace stepscope

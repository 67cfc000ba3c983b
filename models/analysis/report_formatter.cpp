#include "models/analysis/report_formatter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <sstream>

namespace stepscope {

namespace {
QString q(const std::string &s) { return QString::fromStdString(s); }

QJsonObject stepTimeJson(const StepTimeStats &s) {
    return {{"mean", s.meanMs}, {"median", s.medianMs}, {"p95", s.p95Ms}, {"min", s.minMs}, {"max", s.maxMs}};
}

std::string fmt(const char *f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
} // namespace

std::string ReportFormatter::json(const Report &report) {
    QJsonArray sources;
    for (const SourceRow &s : report.sources)
        sources.append(QJsonObject{{"path", q(s.path)}, {"format", q(s.format)}, {"status", q(s.status)},
                                   {"events", qint64(s.events)}, {"warnings", qint64(s.warnings)}});
    QJsonArray runs;
    for (const RunReport &r : report.runs) {
        QJsonArray steps;
        for (const StepRow &s : r.steps)
            steps.append(QJsonObject{{"step", qint64(s.step)}, {"start_ns", qint64(s.startNs)},
                                     {"dur_ns", qint64(s.durNs)}, {"breakdown_ns", QJsonObject{}}});
        QJsonObject summary{{"steps", qint64(r.steps.size())}, {"step_time_ms", stepTimeJson(r.stepTime)},
                            {"steps_from_markers", r.stepsFromMarkers}};
        if (r.samplesPerSecond) summary["samples_per_s"] = *r.samplesPerSecond;
        QJsonObject run{{"name", q(r.run.name)}, {"host", q(r.run.host)}, {"framework", q(r.run.framework)},
                        {"device", q(r.run.device)}, {"events", qint64(r.events)}, {"tracks", qint64(r.tracks)},
                        {"steps", steps}, {"summary", summary}, {"top_ops", QJsonArray{}}, {"findings", QJsonArray{}}};
        if (r.run.rank) run["rank"] = qint64(*r.run.rank);
        runs.append(run);
    }
    QJsonObject root{{"stepscope_report", 1}, {"sources", sources}, {"runs", runs},
                     {"skipped_files", qint64(report.skippedFiles)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string ReportFormatter::text(const Report &report) {
    std::ostringstream out;
    out << "Stepscope report\n\nSources (" << report.sources.size() << "):\n";
    for (const SourceRow &s : report.sources)
        out << "  " << s.path << "  [" << s.format << ", " << s.status << "]  " << s.events << " events, "
            << s.warnings << " warnings\n";
    if (report.skippedFiles) out << "  (" << report.skippedFiles << " files skipped: not a readable format)\n";
    for (const RunReport &r : report.runs) {
        out << "\nRun " << r.run.name;
        if (!r.run.framework.empty()) out << " (" << r.run.framework << ")";
        if (!r.run.device.empty()) out << " on " << r.run.device;
        out << "\n  events: " << r.events << " on " << r.tracks << " tracks\n";
        if (!r.stepsFromMarkers) out << "  no step markers in this trace: the whole trace is reported as one step\n";
        out << "  steps: " << r.steps.size() << "\n";
        if (!r.steps.empty())
            out << "  step time (ms): mean " << fmt("%.2f", r.stepTime.meanMs) << ", median "
                << fmt("%.2f", r.stepTime.medianMs) << ", p95 " << fmt("%.2f", r.stepTime.p95Ms) << ", min "
                << fmt("%.2f", r.stepTime.minMs) << ", max " << fmt("%.2f", r.stepTime.maxMs) << "\n";
        if (r.samplesPerSecond) out << "  throughput: " << fmt("%.1f", *r.samplesPerSecond) << " samples/s\n";
    }
    return out.str();
}

std::string ReportFormatter::markdown(const Report &report) {
    std::ostringstream out;
    out << "# Stepscope report\n\n## Sources\n\n| file | format | status | events | warnings |\n|---|---|---|---:|---:|\n";
    for (const SourceRow &s : report.sources)
        out << "| `" << s.path << "` | " << s.format << " | " << s.status << " | " << s.events << " | " << s.warnings
            << " |\n";
    for (const RunReport &r : report.runs) {
        out << "\n## Run " << r.run.name << "\n\n";
        out << "- framework: " << (r.run.framework.empty() ? "unknown" : r.run.framework) << "\n";
        out << "- events: " << r.events << " on " << r.tracks << " tracks\n";
        out << "- steps: " << r.steps.size() << (r.stepsFromMarkers ? "" : " (no step markers: whole trace)") << "\n";
        if (!r.steps.empty()) {
            out << "\n| step time (ms) | mean | median | p95 | min | max |\n|---|---:|---:|---:|---:|---:|\n";
            out << "| | " << fmt("%.2f", r.stepTime.meanMs) << " | " << fmt("%.2f", r.stepTime.medianMs) << " | "
                << fmt("%.2f", r.stepTime.p95Ms) << " | " << fmt("%.2f", r.stepTime.minMs) << " | "
                << fmt("%.2f", r.stepTime.maxMs) << " |\n";
        }
        if (r.samplesPerSecond) out << "\nThroughput: " << fmt("%.1f", *r.samplesPerSecond) << " samples/s\n";
    }
    return out.str();
}

} // namespace stepscope

#include "views/export/export_caption.h"

#include "models/analysis/service/analysis_model.h"
#include "models/analysis/engine/job_analysis.h"
#include "models/annotations/annotation_model.h"
#include "models/text/time_format.h"
#include "models/colors/palette.h"
#include "views/annotations/annotation_painter.h"

#include <QFileInfo>

#include <algorithm>
#include <optional>

namespace stepscope {

namespace {
constexpr int kMaxRuns = 2;
constexpr int kMaxNotes = 8;

// "1.234 s – 2.345 s (1.111 s)", "500.000 ms – 502.000 ms (2.000 ms)": both ends in the span's unit
// and precision, so they read alike and tell apart however far from the start the range is.
QString captionRangeTimes(NsRange range, int64_t originNs) {
    const int64_t reference = range.duration() > 0 ? range.duration() : -1;
    return QObject::tr("%1 – %2 (%3)").arg(formatTime(range.start - originNs, reference),
                                          formatTime(range.end - originNs, reference), formatTime(range.duration()));
}

// More than half of [lo, hi) lies inside `range`.
bool mostlyIn(int64_t lo, int64_t hi, NsRange range) {
    const int64_t a = std::max(lo, range.start), b = std::min(hi, range.end);
    return hi > lo && b - a > (hi - lo) / 2;
}
} // namespace

ExportCaption::StepsShown ExportCaption::stepsIn(const RunAnalysis &a, NsRange range) {
    StepsShown shown;
    shown.total = int(a.steps.steps.size());
    if (!a.steps.hasSteps()) return shown;
    // A step is in the picture when at least half of it is — of its span on device time, or of its
    // marker's host span (`export --steps A-B` shows the markers' span; GPU work may run on past it).
    for (const AnalysisStep &s : a.steps.steps) {
        if (!mostlyIn(s.start, s.end, range) && !mostlyIn(s.hostStart, s.hostEnd, range)) continue;
        if (shown.count == 0) shown.first = s.step;
        shown.last = s.step;
        ++shown.count;
    }
    return shown;
}

QString ExportCaption::rangeText(SessionModel *session, int64_t runId, NsRange range, int64_t originNs) {
    QString time = captionRangeTimes(range, originNs);
    const RunAnalysis *a = AnalysisModel::of(session)->analyseNow(runId);
    if (!a || a->steps.steps.empty() || !a->steps.hasSteps()) return time;
    const StepsShown s = stepsIn(*a, range);
    if (s.count == 0) return QObject::tr("between steps · %1").arg(time);
    if (s.count == s.total) return QObject::tr("all %1 steps · %2").arg(s.total).arg(time);
    if (s.first == s.last) return QObject::tr("step %1 of %2 · %3").arg(s.first).arg(s.total).arg(time);
    return QObject::tr("steps %1–%2 of %3 · %4").arg(s.first).arg(s.last).arg(s.total).arg(time);
}

namespace {
// The ranks of a data-parallel job seen together (the analysis service's job): the root cause, where
// the ranks' own verdicts only show the wait. Empty when the session is no job. A picture waits for
// the ranks' analyses (exports are synchronous by nature).
QString jobLine(AnalysisModel *analysis) {
    const SessionJob *sessionJob = analysis->jobNow();
    if (!sessionJob) return {};
    const JobAnalysis &job = sessionJob->job;
    QString line = QObject::tr("Job: %1 ranks · bottleneck %2").arg(job.ranks).arg(QString::fromStdString(job.bottleneck));
    if (!job.stragglers.empty()) {
        const JobStraggler &st = job.stragglers.front();
        line += QObject::tr(" on rank %1 (a straggler: the others wait ~%2 ms/step for it)").arg(st.rank).arg(st.lateMsPerStep, 0, 'f', 1);
    }
    return line;
}
} // namespace

ExportDecoration ExportCaption::build(SessionModel *session, NsRange range, const QString &view, const QString &title) {
    ExportDecoration d;
    d.title = title.isEmpty() ? QObject::tr("Stepscope — %1").arg(view) : title;
    if (!session || !session->store()) return d;
    SessionReader reader(*session->store());
    QStringList files;
    for (const SourceRow &s : reader.sources()) files << QFileInfo(QString::fromStdString(s.path)).fileName();
    if (!files.isEmpty()) d.caption << QObject::tr("Source: %1").arg(files.join(", "));
    const NsRange extent = session->extent();
    const int64_t origin = extent.valid() ? extent.start : range.start;
    AnalysisModel *analysis = AnalysisModel::of(session);
    const std::vector<RunRow> runs = analysis->runs();
    // The figures of the first run's steps in the picture: the legend's step-time breakdown.
    const RunAnalysis *firstRun = nullptr;
    for (size_t i = 0; i < runs.size() && int(i) < kMaxRuns; ++i) {
        const RunRow &run = runs[i];
        QString who = QString::fromStdString(run.name);
        QStringList about;
        if (!run.framework.empty()) about << QString::fromStdString(run.framework);
        if (!run.device.empty()) about << QString::fromStdString(run.device);
        if (!about.isEmpty()) who += QStringLiteral(" (%1)").arg(about.join(", "));
        d.caption << QObject::tr("Run %1 · %2").arg(who, rangeText(session, run.id, range, origin));
        const RunAnalysis *whole = analysis->analyseNow(run.id);
        if (!whole) continue;
        // The verdict and figures describe the steps in the picture, exactly as `report --steps A-B`
        // computes them; the whole run's only when the picture shows all of it.
        const StepsShown shown = stepsIn(*whole, range);
        const RunAnalysis *a = nullptr;
        QString scope;
        if (shown.count > 0 && shown.count == shown.total) {
            a = whole;
        } else if (const RunAnalysis *steps = shown.count > 0 ? analysis->analyseSteps(run, shown.first, shown.last) : nullptr) {
            a = steps;
            scope = shown.first == shown.last ? QObject::tr(" (step %1)").arg(shown.first)
                                              : QObject::tr(" (steps %1–%2)").arg(shown.first).arg(shown.last);
        } else {
            // Between steps, or a part of a trace without step markers: no step figures of the range
            // exist; the run's verdict is labelled as the whole run's.
            d.caption << QObject::tr("Bottleneck of the whole run: %1").arg(QString::fromStdString(whole->bottleneck));
            continue;
        }
        QString verdict = QObject::tr("Bottleneck%1: %2").arg(scope, QString::fromStdString(a->bottleneck));
        if (!a->bottleneckDetail.empty()) verdict += QStringLiteral(" (%1)").arg(QString::fromStdString(a->bottleneckDetail));
        // A CPU-only trace has no GPU to be busy: no "GPU busy 0.0 %".
        if (const auto busy = a->gpuBusy()) verdict += QObject::tr(" · GPU busy %1 % of step time").arg(*busy, 0, 'f', 1);
        if (a->samplesPerSecond) verdict += QObject::tr(" · %1 samples/s").arg(*a->samplesPerSecond, 0, 'f', 1);
        d.caption << verdict;
        if (!firstRun) firstRun = a;
    }
    if (int(runs.size()) > kMaxRuns) d.caption << QObject::tr("(and %n more run(s))", nullptr, int(runs.size()) - kMaxRuns);
    if (const QString job = jobLine(analysis); !job.isEmpty()) d.caption << job;
    if (runs.empty()) d.caption << QObject::tr("Time %1").arg(captionRangeTimes(range, origin));

    // The first notes in the picture by name (each its label: first line, bounded), the rest counted;
    // nothing is copied, however many or long the notes are.
    int64_t notes = 0;
    for (const Annotation &a : AnnotationModel::of(session)->annotations()) {
        if (!a.overlaps(range.start, range.end)) continue;
        if (notes == 0) d.legend.push_back({QColor(), QObject::tr("Notes")});
        if (notes++ < kMaxNotes) d.legend.push_back({AnnotationPainter::color(a), AnnotationPainter::labelText(a)});
    }
    if (notes > kMaxNotes)
        d.legend.push_back({Qt::lightGray, QObject::tr("%L1 more").arg(notes - kMaxNotes)});
    if (firstRun) {
        std::vector<std::pair<double, int>> shares;
        for (int c = 0; c < kCategoryCount; ++c)
            if (firstRun->categoryPct(Category(c)) >= 1.0) shares.push_back({firstRun->categoryPct(Category(c)), c});
        std::sort(shares.rbegin(), shares.rend());
        if (!shares.empty()) d.legend.push_back({QColor(), QObject::tr("Step time")});
        for (const auto &[pct, c] : shares) {
            const auto name = kCategoryNames[size_t(c)];
            d.legend.push_back({categoryColor(Category(c)), QStringLiteral("%1 %2 %").arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
                                                                .arg(pct, 0, 'f', 1)});
        }
    }
    return d;
}

} // namespace stepscope

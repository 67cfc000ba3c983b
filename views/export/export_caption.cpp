#include "views/export/export_caption.h"

#include "models/analysis/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "models/timeline/range_aggregate_model.h"
#include "views/analysis/category_colors.h"
#include "views/annotations/annotation_painter.h"

#include <QFileInfo>

#include <algorithm>

namespace stepscope {

namespace {
constexpr int kMaxRuns = 2;
constexpr int kMaxNotes = 8;

QString seconds(int64_t ns) { return QStringLiteral("%1 s").arg(double(ns) / 1e9, 0, 'f', 3); }
} // namespace

QString ExportCaption::rangeText(SessionModel *session, int64_t runId, NsRange range, int64_t originNs) {
    QString time = QObject::tr("%1 – %2 (%3)").arg(seconds(range.start - originNs), seconds(range.end - originNs),
                                                  formatDurationNs(range.duration()));
    const RunAnalysis *a = AnalysisModel::of(session)->analysis(runId);
    if (!a || a->steps.steps.empty() || !a->steps.fromMarkers) return time;
    // A step is in the picture when at least half of it is.
    int64_t first = -1, last = -1;
    int count = 0;
    for (const AnalysisStep &s : a->steps.steps) {
        const int64_t lo = std::max(s.start, range.start), hi = std::min(s.end, range.end);
        if (hi - lo <= s.dur() / 2) continue;
        if (first < 0) first = s.step;
        last = s.step;
        ++count;
    }
    const int total = int(a->steps.steps.size());
    if (count == 0) return QObject::tr("between steps · %1").arg(time);
    if (count == total) return QObject::tr("all %1 steps · %2").arg(total).arg(time);
    if (first == last) return QObject::tr("step %1 of %2 · %3").arg(first).arg(total).arg(time);
    return QObject::tr("steps %1–%2 of %3 · %4").arg(first).arg(last).arg(total).arg(time);
}

ExportDecoration ExportCaption::build(SessionModel *session, NsRange range, const QString &view, const QString &title) {
    ExportDecoration d;
    d.title = title.isEmpty() ? QObject::tr("Stepscope — %1").arg(view) : title;
    if (!session || !session->store()) return d;
    SessionReader reader(*session->store());
    QStringList files;
    for (const SourceRow &s : reader.sources()) files << QFileInfo(QString::fromStdString(s.path)).fileName();
    if (!files.isEmpty()) d.caption << QObject::tr("Source: %1").arg(files.join(", "));
    const TimeRange extent = session->extent();
    const int64_t origin = extent.valid() ? extent.startNs : range.start;
    AnalysisModel *analysis = AnalysisModel::of(session);
    const std::vector<RunRow> runs = analysis->runs();
    const RunAnalysis *firstRun = nullptr;
    for (size_t i = 0; i < runs.size() && int(i) < kMaxRuns; ++i) {
        const RunRow &run = runs[i];
        QString who = QString::fromStdString(run.name);
        QStringList about;
        if (!run.framework.empty()) about << QString::fromStdString(run.framework);
        if (!run.device.empty()) about << QString::fromStdString(run.device);
        if (!about.isEmpty()) who += QStringLiteral(" (%1)").arg(about.join(", "));
        d.caption << QObject::tr("Run %1 · %2").arg(who, rangeText(session, run.id, range, origin));
        if (const RunAnalysis *a = analysis->analysis(run.id)) {
            if (!firstRun) firstRun = a;
            QString verdict = QObject::tr("Bottleneck: %1").arg(QString::fromStdString(a->bottleneck));
            if (!a->bottleneckDetail.empty()) verdict += QStringLiteral(" (%1)").arg(QString::fromStdString(a->bottleneckDetail));
            verdict += QObject::tr(" · GPU busy %1% of step time").arg(a->gpuBusyPct, 0, 'f', 1);
            if (a->samplesPerSecond) verdict += QObject::tr(" · %1 samples/s").arg(*a->samplesPerSecond, 0, 'f', 1);
            d.caption << verdict;
        }
    }
    if (int(runs.size()) > kMaxRuns) d.caption << QObject::tr("(and %n more run(s))", nullptr, int(runs.size()) - kMaxRuns);
    if (runs.empty()) d.caption << QObject::tr("Time %1 – %2 (%3)").arg(seconds(range.start - origin), seconds(range.end - origin),
                                                                          formatDurationNs(range.duration()));

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
            d.legend.push_back({categoryColor(Category(c)), QStringLiteral("%1 %2%").arg(QString::fromUtf8(name.data(), qsizetype(name.size())))
                                                                .arg(pct, 0, 'f', 1)});
        }
    }
    return d;
}

} // namespace stepscope

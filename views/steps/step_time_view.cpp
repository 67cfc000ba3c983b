#include "views/steps/step_time_view.h"
#include "views/plot/legend_rows.h"

#include "models/analysis/engine/memory_headroom.h"

#include "models/analysis/service/analysis_model.h"
#include "models/colors/palette.h"
#include "views/annotations/annotation_plot_layer.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace stepscope {

namespace {
// A step's time on its critical path in one category (0 when the category has no type).
int64_t pathNs(const RunAnalysis &a, const StepCriticalPath &p, Category c) {
    const int t = a.categoryType[size_t(c)];
    return t >= 0 && size_t(t) < p.perTypeNs.size() ? p.perTypeNs[size_t(t)] : 0;
}
} // namespace

StepTimeView::StepTimeView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_analysis(models.analysis),
      m_runBox(new QComboBox(this)), m_showBox(new QComboBox(this)), m_summary(new QLabel(this)), m_plot(new QCustomPlot(this)) {
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_runBox, 1);
    m_showBox->addItems({tr("Breakdown"), tr("Critical path")});
    m_showBox->setObjectName(QStringLiteral("stepShow"));
    m_showBox->setToolTip(tr("Breakdown: where each step's time went. Critical path: the chain of dependent work that set "
                             "each step's time, by category (hatched: the rest of the step, waiting or untraced)"));
    m_showBox->setCurrentIndex(QSettings().value(QStringLiteral("steps/criticalPath"), false).toBool() ? 1 : 0);
    top->addWidget(m_showBox);
    m_summary->setWordWrap(true);  // a long verdict wraps instead of widening the dock
    top->addWidget(m_summary, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);

    m_plot->setMinimumHeight(160);
    m_plot->xAxis->setLabel(tr("step (number)"));
    // Steps are whole numbers: ticks at 1, 2, 5, 10, … steps apart, never at 2.5.
    QSharedPointer<QCPAxisTickerFixed> wholeSteps(new QCPAxisTickerFixed);
    wholeSteps->setTickStep(1);
    wholeSteps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(wholeSteps);
    m_plot->yAxis->setLabel(tr("step time (ms)"));
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), 8));
    // The legend gets its own column right of the bars, so it never hides a step.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    auto *legendColumn = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, legendColumn);
    legendColumn->addElement(0, 0, m_plot->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(m_plot));  // pushes the legend to the top
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setMargins(QMargins(0, 6, 6, 0));
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    // A short chart gets a legend of several columns instead of entries drawn over each other.
    m_plot->installEventFilter(this);
    QCPBars *below = nullptr;
    for (int c = 0; c < kCategoryCount; ++c) {
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(QString::fromUtf8(kCategoryNames[size_t(c)].data(), qsizetype(kCategoryNames[size_t(c)].size())));
        bars->setPen(Qt::NoPen);
        bars->setBrush(categoryColor(Category(c)));
        bars->setWidth(0.8);
        bars->setStackingGap(0);
        if (below) bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
    }
    m_offPath = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_offPath->setName(tr("not on the path"));
    m_offPath->setPen(Qt::NoPen);
    m_offPath->setBrush(QBrush(QColor(0x9e, 0x9e, 0x9e), Qt::BDiagPattern));
    m_offPath->setWidth(0.8);
    m_offPath->setStackingGap(0);
    m_offPath->moveAbove(below);
    // What the steps would take with the bottleneck fixed (RunAnalysis::projection): an outline over
    // each bar, so the gain per step is read off the same axis.
    m_projected = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_projected->setWidth(0.8);
    m_projected->setBrush(Qt::NoBrush);
    m_projected->setPen(QPen(QColor(0x20, 0x20, 0x20), 1.5, Qt::DashLine));
    m_inRange = m_plot->addGraph();
    m_inRange->setName(tr("in view"));
    m_inRange->setLineStyle(QCPGraph::lsNone);
    m_inRange->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x2f, 0x6f, 0xb5), 5));
    m_outliers = m_plot->addGraph();
    m_outliers->setName(tr("outlier step"));
    m_outliers->setLineStyle(QCPGraph::lsNone);
    m_outliers->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, Qt::black, Qt::red, 9));

    connect(m_analysis, &AnalysisModel::changed, this, &StepTimeView::reloadRuns);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, &StepTimeView::reload);
    connect(m_showBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        QSettings().setValue(QStringLiteral("steps/criticalPath"), i == 1);
        reload();
    });
    connect(m_time, &TimeRangeController::rangeChanged, this, &StepTimeView::applyRange);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (e->button() != Qt::LeftButton) return;  // right button: the annotation menu
        const int k = stepAt(m_plot->xAxis->pixelToCoord(e->position().x()));
        if (k >= 0) {
            const auto &s = m_current->steps.steps[size_t(k)];
            m_time->setRange({s.start, s.end});
        }
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        // Over a note's label: the whole note (a label may be cut); elsewhere the step's summary.
        QString text = m_annotations->noteTextAt(e->position().x(), e->position().y());
        if (text.isEmpty()) text = stepSummary(m_plot->xAxis->pixelToCoord(e->position().x()));
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
    });
    // Notes sit over the steps they span; right-click a bar to annotate that step.
    m_annotations = new AnnotationPlotLayer(m_plot, models.annotations, [this](const Annotation &a) {
        std::optional<std::pair<double, double>> keys;
        for (const auto &s : m_current ? m_current->steps.steps : std::vector<AnalysisStep>{})
            if (a.isPoint() ? (a.startNs >= s.start && a.startNs < s.end) : (a.startNs < s.end && a.endNs > s.start))
                keys = std::make_pair(keys ? keys->first : double(s.step) - 0.45, double(s.step) + 0.45);
        return keys;
    });
    connect(models.annotations, &AnnotationModel::changed, this, [this] { QTimer::singleShot(0, this, &StepTimeView::fitValueAxis); });
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, [this](QPoint pos) {
        const int k = stepAt(m_plot->xAxis->pixelToCoord(pos.x()));
        if (k < 0) return;
        const auto &s = m_current->steps.steps[size_t(k)];
        QMenu menu(this);
        m_annotations->addMenuActions(menu, this, pos.x(), s.start, s.end, tr("Step %1").arg(s.step));
        menu.exec(m_plot->mapToGlobal(pos));
    });
    reloadRuns();
}

int StepTimeView::barCount() const { return m_bars.empty() ? 0 : m_bars.front()->data()->size(); }

int StepTimeView::stepAt(double x) const {
    if (!m_current) return -1;
    for (size_t k = 0; k < m_current->steps.steps.size(); ++k)
        if (std::abs(double(m_current->steps.steps[k].step) - x) <= 0.4) return int(k);
    return -1;
}

QString StepTimeView::stepSummary(double x) const {
    const int k = stepAt(x);
    if (k < 0) return {};
    const auto &s = m_current->steps.steps[size_t(k)];
    QString text = tr("<b>step %1</b>: %2 ms").arg(s.step).arg(double(s.dur()) / 1e6, 0, 'f', 2);
    const StepCriticalPath *path = m_current->criticalPath && size_t(k) < m_current->criticalPath->steps.size()
                                       ? &m_current->criticalPath->steps[size_t(k)] : nullptr;
    if (path) text += tr(" · critical path %1 ms").arg(double(path->lengthNs) / 1e6, 0, 'f', 2);
    if (path && showsCriticalPath()) text += tr("<br><i>on the critical path:</i>");
    for (int c = 0; c < kCategoryCount; ++c) {
        const int64_t ns = path && showsCriticalPath() ? pathNs(*m_current, *path, Category(c)) : m_current->categoryNs(size_t(k), Category(c));
        if (ns <= 0) continue;
        text += QStringLiteral("<br><span style='color:%1'>&#9632;</span> %2: %3 ms (%4%)")
                    .arg(categoryColor(Category(c)).name(), m_bars[size_t(c)]->name())
                    .arg(double(ns) / 1e6, 0, 'f', 2)
                    .arg(100.0 * double(ns) / double(std::max<int64_t>(1, s.dur())), 0, 'f', 1);
    }
    if (const auto &m = m_current->memory; m && size_t(k) < m->perStepPeakBytes.size() && m->perStepPeakBytes[size_t(k)]) {
        text += tr("<br>GPU %1 memory peak: %2").arg(m->device).arg(QString::fromStdString(formatBytes(double(*m->perStepPeakBytes[size_t(k)]))));
        if (m->deviceTotalBytes) text += tr(" of %1").arg(QString::fromStdString(formatBytes(double(*m->deviceTotalBytes))));
    }
    for (const OutlierStep &o : m_current->outliers)
        if (o.step == s.step) text += tr("<br><i>outlier: %1</i>").arg(QString::fromStdString(o.cause).toHtmlEscaped());
    return text;
}

void StepTimeView::reloadRuns() {
    const auto runs = m_analysis->runs();
    const QString current = m_runBox->currentText();
    {
        QSignalBlocker block(m_runBox);
        m_runBox->clear();
        for (const RunRow &r : runs) m_runBox->addItem(QString::fromStdString(r.name), qint64(r.id));
        const int idx = m_runBox->findText(current);
        m_runBox->setCurrentIndex(idx >= 0 ? idx : 0);
    }
    reload();
}

void StepTimeView::setShowOnlyRange(bool on) {
    m_onlyRange = on;
    reload();
}

namespace {
// A step counts as in view when the visible range covers half of it.
bool halfInView(const AnalysisStep &s, NsRange range) {
    const int64_t lo = std::max(s.start, range.start), hi = std::min(s.end, range.end);
    return range.valid() && hi - lo > s.dur() / 2;
}
} // namespace

void StepTimeView::reload() {
    m_current = m_runBox->currentIndex() >= 0 ? m_analysis->analysisOrStart(m_runBox->currentData().toLongLong()) : nullptr;
    QVector<double> keys;
    std::vector<QVector<double>> values(kCategoryCount);
    QVector<double> outKeys, outValues, projected, offPath;
    const bool path = showsCriticalPath() && m_current && m_current->criticalPath &&
                      m_current->criticalPath->steps.size() == m_current->steps.steps.size();
    double maxMs = 1;
    // In a job, a waiting rank's verdict is a symptom: what fixing the straggler is worth leads.
    const JobRankNote job = m_current ? m_analysis->jobNote(m_runBox->currentData().toLongLong()) : JobRankNote{};
    static const std::optional<Projection> kNoProjection;
    const std::optional<Projection> &projection = job.finding && job.finding->projection ? job.finding->projection
                                                  : m_current                              ? m_current->projection
                                                                                           : kNoProjection;
    if (m_current) {
        bool anyInView = false;
        for (const auto &s : m_current->steps.steps) anyInView = anyInView || halfInView(s, m_time->range());
        for (size_t k = 0; k < m_current->steps.steps.size(); ++k) {
            const auto &s = m_current->steps.steps[k];
            if (m_onlyRange && anyInView && !halfInView(s, m_time->range())) continue;
            keys.push_back(double(s.step));
            if (path) {
                const StepCriticalPath &p = m_current->criticalPath->steps[k];
                for (int c = 0; c < kCategoryCount; ++c) values[size_t(c)].push_back(double(pathNs(*m_current, p, Category(c))) / 1e6);
                offPath.push_back(double(std::max<int64_t>(0, s.dur() - p.lengthNs)) / 1e6);
            } else {
                for (int c = 0; c < kCategoryCount; ++c) values[size_t(c)].push_back(double(m_current->categoryNs(k, Category(c))) / 1e6);
            }
            maxMs = std::max(maxMs, double(s.dur()) / 1e6);
        }
        if (const auto &p = projection; !path && p && p->perStepNs.size() == m_current->steps.steps.size())
            for (size_t k = 0; k < p->perStepNs.size(); ++k)
                if (!m_onlyRange || !anyInView || halfInView(m_current->steps.steps[k], m_time->range()))
                    projected.push_back(double(p->perStepNs[k]) / 1e6);
        for (const OutlierStep &o : m_current->outliers) {
            if (std::find(keys.begin(), keys.end(), double(o.step)) == keys.end()) continue;  // its bar is not shown
            outKeys.push_back(double(o.step));
            outValues.push_back(double(o.durNs) / 1e6 + maxMs * 0.04);
        }
        QString line = tr("bottleneck: <b>%1</b>").arg(QString::fromStdString(m_current->bottleneck).toHtmlEscaped());
        if (!m_current->bottleneckDetail.empty()) line += QStringLiteral(" (%1)").arg(QString::fromStdString(m_current->bottleneckDetail).toHtmlEscaped());
        // A CPU-only trace has no GPU to be busy: no "GPU busy 0.0 %".
        if (const auto busy = m_current->gpuBusy()) line += tr(" · GPU busy %1 %").arg(*busy, 0, 'f', 1);
        if (m_current->samplesPerSecond) line += tr(" · %1 samples/s").arg(*m_current->samplesPerSecond, 0, 'f', 1);
        if (const auto &p = projection)
            line += tr(" · %1 fixed: %2 → %3 ms per step, %4×")
                        .arg(QString::fromStdString(p->category).toHtmlEscaped())
                        .arg(p->currentStepTimeMs, 0, 'f', 1)
                        .arg(p->stepTimeMs, 0, 'f', 1)
                        .arg(p->speedup, 0, 'f', 2);
        if (path) line += tr(" · critical path %1 ms per step (%2 % of the step)")
                              .arg(m_current->criticalPath->meanLengthMs(), 0, 'f', 2)
                              .arg(100.0 * double(m_current->criticalPath->totalLengthNs) / double(std::max<int64_t>(1, m_current->steps.totalNs())), 0, 'f', 0);
        if (!m_current->steps.hasSteps()) line += tr(" · no step markers: whole trace as one step");
        if (m_current->steps.source == StepSource::TfTrainFunction)
            line += tr(" · steps: executions of the TensorFlow training function");
        m_summary->setText(line);
        // A waiting rank's verdict is a symptom; the line says what fixing the straggler is worth.
        m_summary->setToolTip(job.symptom.empty() ? QString() : QString::fromStdString(job.symptom));
    } else {
        const bool pending = m_runBox->currentIndex() >= 0 && m_analysis->pending(m_runBox->currentData().toLongLong());
        m_summary->setText(pending ? tr("Analysing the run in the background…") : m_analysis->error());
    }
    for (int c = 0; c < kCategoryCount; ++c) {
        m_bars[size_t(c)]->setData(keys, values[size_t(c)]);
        // Categories that never occur stay out of the legend.
        bool any = false;
        for (double v : values[size_t(c)]) any = any || v > 0;
        if (any) m_bars[size_t(c)]->addToLegend();
        else m_bars[size_t(c)]->removeFromLegend();
    }
    if (offPath.isEmpty()) {  // (setData with no values beside the keys only warns)
        m_offPath->data()->clear();
        m_offPath->removeFromLegend();
    } else {
        m_offPath->setData(keys, offPath);
        m_offPath->addToLegend();
    }
    if (projected.isEmpty()) {
        m_projected->data()->clear();
        m_projected->removeFromLegend();
    } else {
        m_projected->setData(keys, projected);
        m_projected->setName(tr("if %1 fixed").arg(QString::fromStdString(projection->category)));
        m_projected->addToLegend();
    }
    m_outliers->setData(outKeys, outValues);
    if (outKeys.isEmpty()) m_outliers->removeFromLegend();
    else m_outliers->addToLegend();
    m_plot->legend->setWrap(0);  // entries changed: laid out again for the chart's height
    fitLegendRows(m_plot);
    // No steps (nothing open, an import running, an analysis pending): empty axes, not the last
    // session's, and no empty legend box.
    if (!keys.isEmpty()) m_plot->xAxis->setRange(keys.front() - 1, keys.back() + 1);
    else m_plot->xAxis->setRange(0, 1);
    m_plot->legend->setVisible(m_plot->legend->itemCount() > 0);
    m_maxMs = maxMs;
    m_annotations->refresh();
    fitValueAxis();
    applyRange(m_time->range());
}

bool StepTimeView::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_plot && event->type() == QEvent::Resize) fitLegendRows(m_plot);  // before it replots
    return QWidget::eventFilter(watched, event);
}

void StepTimeView::fitValueAxis() {
    // Note labels sit in the top band of the chart (AnnotationPlotLayer): with notes, the bars and
    // the outlier marks stay below that band instead of under the labels.
    const double headroom = m_annotations->itemCount() > 0 ? 1.12 / (1.0 - kNoteBand) : 1.12;
    m_plot->yAxis->setRange(0, m_maxMs * headroom);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StepTimeView::applyRange(NsRange range) {
    QVector<double> keys, values;
    if (m_current && !m_current->steps.steps.empty()) {
        const auto &steps = m_current->steps.steps;
        const int64_t all = steps.back().end - steps.front().start;
        for (const auto &s : steps) {
            // Marked when the visible range is narrower than all steps and covers half of the step.
            if (range.duration() < all && halfInView(s, range)) {
                keys.push_back(double(s.step));
                values.push_back(0);
            }
        }
    }
    m_inRange->setData(keys, values);
    if (keys.isEmpty()) m_inRange->removeFromLegend();
    else m_inRange->addToLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StepTimeView::setShowCriticalPath(bool on) { m_showBox->setCurrentIndex(on ? 1 : 0); }
bool StepTimeView::showsCriticalPath() const { return m_showBox->currentIndex() == 1; }

void StepTimeView::showRun(qint64 runId) {
    if (const int i = m_runBox->findData(runId); i >= 0) m_runBox->setCurrentIndex(i);
}

} // namespace stepscope

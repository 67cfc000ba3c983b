#include "views/job/job_view.h"

#include "models/analysis/analysis_model.h"
#include "models/store/session_reader.h"
#include "views/analysis/category_colors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace stepscope {

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }

// The legend in its own column right of the plot, so it never hides a bar or a cell.
void legendColumn(QCustomPlot *plot) {
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->axisRect()->insetLayout()->take(plot->legend);
    auto *column = new QCPLayoutGrid;
    plot->plotLayout()->addElement(0, 1, column);
    column->addElement(0, 0, plot->legend);
    column->addElement(1, 0, new QCPLayoutElement(plot));
    column->setRowStretchFactor(0, 0.001);
    column->setMargins(QMargins(0, 6, 6, 0));
    plot->plotLayout()->setColumnStretchFactor(1, 0.001);
}

QSharedPointer<QCPAxisTickerText> rankTicks(const JobAnalysis &job) {
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    const size_t every = std::max<size_t>(1, job.ranksTable.size() / 16);  // at most ~16 labels
    for (size_t r = 0; r < job.ranksTable.size(); r += every)
        ticks->addTick(double(r), QStringLiteral("rank %1").arg(job.ranksTable[r].rank));
    return ticks;
}

} // namespace

JobView::JobView(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QWidget(parent), m_session(session), m_time(time), m_analysis(AnalysisModel::of(session)),
      m_finding(new QLabel(this)), m_alignRow(new QWidget(this)), m_alignBox(new QCheckBox(tr("Align ranks in the timeline at step"), m_alignRow)),
      m_alignStep(new QComboBox(m_alignRow)), m_heatmap(new QCustomPlot(this)), m_breakdown(new QCustomPlot(this)) {
    m_finding->setWordWrap(true);
    m_finding->setTextFormat(Qt::PlainText);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_heatmap);
    split->addWidget(m_breakdown);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_finding);
    auto *alignLayout = new QHBoxLayout(m_alignRow);
    alignLayout->setContentsMargins(0, 0, 0, 0);
    alignLayout->addWidget(m_alignBox);
    alignLayout->addWidget(m_alignStep);
    auto *hint = new QLabel(tr("or click a step number under the heatmap"), m_alignRow);
    hint->setEnabled(false);  // muted: a hint, not a value
    alignLayout->addWidget(hint, 1);
    m_alignBox->setToolTip(tr("The timeline shows the ranks one after another, each shifted so that this step starts at "
                              "the same x; its ruler counts from that start. Off: the recorded times. (R on the timeline "
                              "toggles it at the step under the mouse.)"));
    m_alignBox->setObjectName(QStringLiteral("alignRanks"));
    m_alignStep->setObjectName(QStringLiteral("alignStep"));
    m_alignStep->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    layout->addWidget(m_alignRow);
    layout->addWidget(split, 1);

    m_heatmap->setMinimumSize(260, 160);
    m_heatmap->xAxis->setLabel(tr("step"));
    m_heatmap->setToolTip(tr("Click a cell: that rank's timeline at that step. Click a step number: the ranks aligned at it."));
    m_map = new QCPColorMap(m_heatmap->xAxis, m_heatmap->yAxis);
    m_map->setInterpolate(false);
    m_map->setName(tr("step time (ms)"));
    auto *scale = new QCPColorScale(m_heatmap);
    m_heatmap->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(tr("step time (ms)"));
    scale->setBarWidth(10);
    m_map->setColorScale(scale);
    m_map->setGradient(QCPColorGradient(QCPColorGradient::gpThermal));
    auto *margins = new QCPMarginGroup(m_heatmap);
    m_heatmap->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

    m_breakdown->setMinimumSize(260, 160);
    m_breakdown->yAxis->setLabel(tr("ms per step"));
    legendColumn(m_breakdown);
    QCPBars *below = nullptr;
    for (int c = 0; c < kCategoryCount; ++c) {
        auto *bars = new QCPBars(m_breakdown->xAxis, m_breakdown->yAxis);
        bars->setName(q(std::string(kCategoryNames[size_t(c)])));
        bars->setPen(Qt::NoPen);
        bars->setBrush(categoryColor(Category(c)));
        bars->setWidth(0.7);
        bars->setStackingGap(0);
        if (below) bars->moveAbove(below);
        below = bars;
        m_bars.push_back(bars);
    }

    connect(m_analysis, &AnalysisModel::changed, this, &JobView::reload);
    connect(m_alignBox, &QCheckBox::toggled, this, [this](bool on) {
        if (!on) emit alignmentLeft();
        else if (!alignColumn(m_alignStep->currentIndex())) m_alignBox->setChecked(false);
    });
    connect(m_alignStep, &QComboBox::activated, this, [this](int column) {
        if (m_alignBox->isChecked()) alignColumn(column);
        else m_alignBox->setChecked(true);  // choosing a step is asking for it
    });
    connect(m_heatmap, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (e->button() != Qt::LeftButton || !m_job) return;
        if (const int column = columnHeaderAt(e->position().toPoint()); column >= 0) {
            alignColumn(column);
            return;
        }
        const double x = m_heatmap->xAxis->pixelToCoord(e->position().x());
        const double y = m_heatmap->yAxis->pixelToCoord(e->position().y());
        showCell(int(std::lround(y)), int(std::lround(x)));
    });
    connect(m_heatmap, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {  // step numbers are links
        m_heatmap->setCursor(columnHeaderAt(e->position().toPoint()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    });
    reload();
}

QString JobView::findingText() const { return m_finding->text(); }

bool JobView::showCell(int row, int column) {
    if (!m_job || row < 0 || column < 0 || size_t(row) >= m_job->ranksTable.size() ||
        size_t(column) >= m_job->alignedSteps.size())
        return false;
    const JobRankRow &r = m_job->ranksTable[size_t(row)];
    const RunAnalysis *a = m_analysis->analysis(m_runs[r.runIndex].id);
    if (!a) return false;
    const AnalysisStep &s = a->steps.steps[m_job->stepIndex[size_t(row)][size_t(column)]];
    m_time->setRange({s.start, s.end});
    emit cellShown(m_runs[r.runIndex].id, NsRange{s.start, s.end});
    return true;
}

bool JobView::alignColumn(int column) {
    if (!m_job || column < 0 || size_t(column) >= m_job->alignedSteps.size()) return false;
    QHash<qint64, qint64> starts;
    for (size_t row = 0; row < m_job->ranksTable.size(); ++row) {
        const int64_t runId = m_runs[m_job->ranksTable[row].runIndex].id;
        if (const RunAnalysis *a = m_analysis->analysis(runId))
            starts.insert(runId, a->steps.steps[m_job->stepIndex[row][size_t(column)]].start);
    }
    if (starts.size() < 2) return false;
    emit alignRequested(starts, m_job->alignedSteps[size_t(column)]);
    return true;
}

int JobView::columnHeaderAt(QPoint pos) const {
    if (!m_job || m_heatmap->isHidden()) return -1;
    const QRect plot = m_heatmap->axisRect()->rect();
    // The step numbers sit in the band below the cells, above the axis label.
    if (pos.x() < plot.left() || pos.x() > plot.right() || pos.y() <= plot.bottom() || pos.y() > plot.bottom() + 28) return -1;
    const int column = int(std::lround(m_heatmap->xAxis->pixelToCoord(pos.x())));
    return column >= 0 && size_t(column) < m_job->alignedSteps.size() ? column : -1;
}

void JobView::showAlignment(bool aligned, qint64 step) {
    const QSignalBlocker blockBox(m_alignBox), blockStep(m_alignStep);
    m_alignBox->setChecked(aligned);
    if (!aligned || !m_job) return;
    const auto &steps = m_job->alignedSteps;
    const auto it = std::find(steps.begin(), steps.end(), step);
    if (it != steps.end()) m_alignStep->setCurrentIndex(int(it - steps.begin()));
}

void JobView::fillAlignSteps() {
    const QSignalBlocker block(m_alignStep);
    const int was = m_alignStep->currentIndex();
    m_alignStep->clear();
    for (size_t k = 0; m_job && k < m_job->alignedSteps.size(); ++k) m_alignStep->addItem(QString::number(m_job->alignedSteps[k]));
    if (was >= 0 && was < m_alignStep->count()) m_alignStep->setCurrentIndex(was);
    m_alignRow->setVisible(m_job && !m_job->alignedSteps.empty());
}

void JobView::reload() {
    m_job.reset();
    m_runs.clear();
    std::vector<RunAnalysis *> analyses;
    bool pending = false;
    for (const RunRow &run : m_analysis->runs()) {
        if (!run.rank) continue;
        const RunAnalysis *a = m_analysis->analysisOrStart(run.id);
        pending = pending || m_analysis->pending(run.id);
        if (!a) continue;
        m_runs.push_back(run);
        // The view only reads (no findings are added: those are the report's), so the shared
        // analyses stay as the other views show them.
        analyses.push_back(const_cast<RunAnalysis *>(a));
    }
    if (pending) {
        m_finding->setText(tr("Analysing…"));
    } else if (m_runs.size() >= 2 && m_session->store()) {
        std::vector<JobMember> members;  // JobRankRow::runIndex indexes m_runs
        for (size_t i = 0; i < m_runs.size(); ++i) members.push_back({&m_runs[i], analyses[i]});
        m_job = JobAnalyzer::analyze(members, SessionReader(*m_session->store()).sources(), false);
    }
    // Without a job there is nothing to chart: empty axes would only look like a job of no ranks.
    m_heatmap->setVisible(m_job.has_value());
    m_breakdown->setVisible(m_job.has_value());
    if (!m_job) {
        if (!pending)
            m_finding->setText(tr("No job here: the session holds fewer than two runs with a rank. Open the traces of "
                                  "every rank of one data-parallel job together (a folder of rank-N traces) to see "
                                  "which rank holds the others back."));
    } else if (m_job->stragglers.empty()) {
        m_finding->setText(tr("%1 ranks, step time %2 ms (median). No straggler: the ranks reach their collectives "
                              "together; the common verdict is %3.")
                               .arg(m_job->ranks)
                               .arg(m_job->medianStepMs, 0, 'f', 1)
                               .arg(q(m_job->bottleneck)));
    } else {
        const JobStraggler &s = m_job->stragglers.front();
        const QString run = s.run == "rank " + std::to_string(s.rank) ? QString() : QStringLiteral(" (%1)").arg(q(s.run));
        m_finding->setText(tr("%1 ranks, step time %2 ms (median). Straggler: rank %3%4 arrives late at the first "
                              "all-reduce in %5 of %6 steps because of its %7 (+%8 ms/step over the other ranks); the "
                              "others wait ~%9 ms/step for it.")
                               .arg(m_job->ranks)
                               .arg(m_job->medianStepMs, 0, 'f', 1)
                               .arg(s.rank)
                               .arg(run)
                               .arg(s.lateSteps)
                               .arg(m_job->alignedSteps.size())
                               .arg(q(s.cause))
                               .arg(s.causeExcessMsPerStep, 0, 'f', 1)
                               .arg(s.lateMsPerStep, 0, 'f', 1));
    }
    fillAlignSteps();
    drawHeatmap();
    drawBreakdown();
}

void JobView::drawHeatmap() {
    QCPColorMapData *cells = m_map->data();
    if (!m_job || m_job->alignedSteps.empty()) {
        cells->setSize(0, 0);
        m_heatmap->replot();
        return;
    }
    const int steps = int(m_job->alignedSteps.size()), ranks = int(m_job->ranksTable.size());
    cells->setSize(steps, ranks);
    cells->setRange(QCPRange(0, steps - 1), QCPRange(0, ranks - 1));
    for (int r = 0; r < ranks; ++r) {
        const RunAnalysis *a = m_analysis->analysis(m_runs[m_job->ranksTable[size_t(r)].runIndex].id);
        for (int k = 0; k < steps && a; ++k)
            cells->setCell(k, r, double(a->steps.steps[m_job->stepIndex[size_t(r)][size_t(k)]].dur()) / 1e6);
    }
    m_map->rescaleDataRange(true);
    QSharedPointer<QCPAxisTickerText> stepTicks(new QCPAxisTickerText);
    const int every = std::max(1, steps / 12);
    for (int k = 0; k < steps; k += every) stepTicks->addTick(k, QString::number(m_job->alignedSteps[size_t(k)]));
    m_heatmap->xAxis->setTicker(stepTicks);
    m_heatmap->xAxis->setLabel(m_job->alignedByOrder ? tr("step (aligned by order)") : tr("step"));
    m_heatmap->yAxis->setTicker(rankTicks(*m_job));
    m_heatmap->xAxis->setRange(-0.5, steps - 0.5);
    m_heatmap->yAxis->setRange(-0.5, ranks - 0.5);
    m_heatmap->yAxis->setRangeReversed(true);
    m_heatmap->replot();
}

void JobView::drawBreakdown() {
    double top = 1;
    std::vector<double> totals(m_job ? m_job->ranksTable.size() : 0, 0.0);
    for (int c = 0; c < kCategoryCount; ++c) {
        QVector<double> keys, values;
        for (size_t r = 0; m_job && r < m_job->ranksTable.size(); ++r) {
            const RunAnalysis *a = m_analysis->analysis(m_runs[m_job->ranksTable[r].runIndex].id);
            if (!a || a->steps.steps.empty()) continue;
            keys << double(r);
            const double ms = double(a->categoryNs(Category(c))) / double(a->steps.steps.size()) / 1e6;
            values << ms;
            totals[r] += ms;
        }
        m_bars[size_t(c)]->setData(keys, values, true);
        // Only the categories some rank spends time on take a legend row.
        const bool used = std::any_of(values.begin(), values.end(), [](double v) { return v > 0.005; });
        if (used) m_bars[size_t(c)]->addToLegend();
        else m_bars[size_t(c)]->removeFromLegend();
    }
    for (double t : totals) top = std::max(top, t);
    if (m_job) m_breakdown->xAxis->setTicker(rankTicks(*m_job));
    m_breakdown->xAxis->setRange(-0.6, double(totals.size()) - 0.4);
    m_breakdown->yAxis->setRange(0, top * 1.08);
    m_breakdown->replot();
}

} // namespace stepscope

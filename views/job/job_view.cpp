#include "views/job/job_view.h"
#include "views/plot/legend_rows.h"

#include "models/analysis/service/analysis_model.h"
#include "models/store/session_reader.h"
#include "models/colors/palette.h"
#include "views/job/job_heatmap_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>
#include <set>

namespace stepscope {

namespace {

QString q(const std::string &s) { return QString::fromStdString(s); }

// The legend in its own column right of the plot, so it never hides a bar or a cell.
void legendColumn(QCustomPlot *plot) {
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setRowSpacing(0);
    plot->legend->setIconSize(12, 9);
    plot->axisRect()->insetLayout()->take(plot->legend);
    auto *column = new QCPLayoutGrid;
    plot->plotLayout()->addElement(0, 1, column);
    column->addElement(0, 0, plot->legend);
    column->addElement(1, 0, new QCPLayoutElement(plot));
    column->setRowStretchFactor(0, 0.001);
    column->setMargins(QMargins(0, 6, 6, 0));
    plot->plotLayout()->setColumnStretchFactor(1, 0.001);
}

// Rank numbers under the bars, as many as fit the plot's width.
QSharedPointer<QCPAxisTickerText> rankTicks(const JobAnalysis &job, const QCustomPlot &plot) {
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    const QFontMetrics fm(plot.xAxis->tickLabelFont());
    const int widest = fm.horizontalAdvance(QString::number(job.ranksTable.empty() ? 0 : job.ranksTable.back().rank)) + 10;
    const int bars = plot.width() - 60 - (plot.legend->visible() ? plot.legend->outerRect().width() : 0);
    const size_t every = size_t(JobHeatmapPlot::tickStride(int(job.ranksTable.size()), bars, widest));
    for (size_t r = 0; r < job.ranksTable.size(); r += every) ticks->addTick(double(r), QString::number(job.ranksTable[r].rank));
    return ticks;
}

} // namespace

JobView::JobView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_analysis(models.analysis),
      m_finding(new QLabel(this)), m_alignRow(new QWidget(this)), m_alignBox(new QCheckBox(tr("Align ranks in the timeline at step"), m_alignRow)),
      m_alignStep(new QComboBox(m_alignRow)), m_compactBox(new QCheckBox(tr("compact"), m_alignRow)),
      m_measure(new QComboBox(this)), m_heatmap(new JobHeatmapPlot(this)), m_breakdown(new QCustomPlot(this)) {
    m_finding->setWordWrap(true);
    m_finding->setTextFormat(Qt::PlainText);
    m_finding->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_finding->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);  // never cut: the controls below give way
    // The words in a column left of the charts: a bottom dock is short, and the charts need its
    // height more than its width.
    auto *side = new QWidget(this);
    side->setFixedWidth(kSideWidth);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_finding);
    auto *alignLayout = new QVBoxLayout(m_alignRow);
    alignLayout->setContentsMargins(0, 0, 0, 0);
    alignLayout->setSpacing(2);
    auto *stepRow = new QHBoxLayout;
    stepRow->addWidget(m_alignBox);
    stepRow->addWidget(m_alignStep);
    stepRow->addStretch(1);
    alignLayout->addLayout(stepRow);
    alignLayout->addWidget(m_compactBox);
    m_compactBox->setText(tr("Compact: 2 tracks per rank"));
    m_compactBox->setObjectName(QStringLiteral("compactRanks"));
    m_compactBox->setToolTip(tr("Each rank shows only the host thread of its training loop and its busiest GPU stream, in "
                                "thin lanes, so that every rank fits on one screen (aligned or not); its other tracks are "
                                "folded away until this is unticked (a search hit on one shows it)."));
    m_alignBox->setText(tr("Align ranks at step"));
    m_alignBox->setToolTip(tr("The timeline shows the ranks one after another, each shifted so that this step starts at "
                              "the same x; its ruler counts from that start. Off: the recorded times. (A click on a step "
                              "number under the heatmap does the same; R on the timeline toggles it at the step under "
                              "the mouse.)"));
    m_alignBox->setObjectName(QStringLiteral("alignRanks"));
    m_alignStep->setObjectName(QStringLiteral("alignStep"));
    m_alignStep->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    sideLayout->addWidget(m_alignRow);
    // What the heatmap colours. Arrival first: in a synchronous job every rank's step takes as long
    // as the slowest one's, so step times cannot show which rank the others wait for.
    auto *measureRow = new QHBoxLayout;
    measureRow->addWidget(new QLabel(tr("Heatmap:"), this));
    m_measure->addItem(tr("late at the first all-reduce"), QStringLiteral("arrival"));
    m_measure->addItem(tr("step time"), QStringLiteral("step_time"));
    m_measure->setObjectName(QStringLiteral("heatmapMeasure"));
    m_measure->setToolTip(tr("Late at the first all-reduce: how long after the earliest rank each rank reached the "
                             "step's first all-reduce (the others spin in it until the last one comes). Step time: "
                             "each rank's step as it recorded it."));
    m_measure->setCurrentIndex(std::max(0, m_measure->findData(QSettings().value(QStringLiteral("job/heatmap")).toString())));
    measureRow->addWidget(m_measure, 1);
    sideLayout->addLayout(measureRow);
    sideLayout->addStretch(1);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_heatmap);
    split->addWidget(m_breakdown);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(side);
    layout->addWidget(split, 1);

    m_heatmap->setMinimumSize(kPlotMinWidth, kPlotMinHeight);
    m_heatmap->setToolTip(tr("Click a cell: that rank's timeline at that step. Click a step number: the ranks aligned at it."));

    m_breakdown->setMinimumSize(kPlotMinWidth, kPlotMinHeight);
    m_breakdown->installEventFilter(this);  // its legend flows into columns to fit its height
    m_breakdown->yAxis->setLabel(tr("ms per step"));
    m_breakdown->xAxis->setLabel(tr("rank"));
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
    connect(m_compactBox, &QCheckBox::toggled, this, &JobView::compactRequested);
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(QStringLiteral("job/heatmap"), m_measure->currentData());
        drawHeatmap();
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
        const auto [row, column] = m_heatmap->cellAt(e->position().toPoint());
        showCell(row, column);
    });
    connect(m_heatmap, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {  // step numbers are links
        m_heatmap->setCursor(columnHeaderAt(e->position().toPoint()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    });
    reload();
}

QString JobView::findingText() const { return m_finding->text(); }

QSize JobView::minimumSizeHint() const {
    const int words = m_finding->heightForWidth(kSideWidth) + (m_alignRow->isHidden() ? 0 : 6 + m_alignRow->sizeHint().height());
    const int charts = m_heatmap->isHidden() ? 0 : kPlotMinHeight;
    return {kSideWidth + 2 * kPlotMinWidth + 24, std::max(words, charts) + 8};
}

bool JobView::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_breakdown && event->type() == QEvent::Resize) {  // before the plot replots
        fitLegend();
        if (m_job) m_breakdown->xAxis->setTicker(rankTicks(*m_job, *m_breakdown));
    }
    return QWidget::eventFilter(watched, event);
}

void JobView::fitLegend() { fitLegendRows(m_breakdown); }  // the rest flow into a second column

int64_t JobView::cellStepIndex(int row, int column) const {
    if (row < 0 || column < 0 || size_t(row) >= m_cells.size() || size_t(column) >= m_columnSteps.size()) return -1;
    return m_cells[size_t(row)][size_t(column)];
}

bool JobView::showCell(int row, int column) {
    const int64_t index = cellStepIndex(row, column);
    if (!m_job || index < 0) return false;
    const JobRankRow &r = m_job->ranksTable[size_t(row)];
    const RunAnalysis *a = m_analysis->analysisOrStart(m_runs[r.runIndex].id);
    if (!a) return false;
    const AnalysisStep &s = a->steps.steps[size_t(index)];
    m_time->setRange({s.start, s.end});
    emit cellShown(m_runs[r.runIndex].id, NsRange{s.start, s.end});
    return true;
}

bool JobView::alignColumn(int column) {
    if (!m_job || column < 0 || size_t(column) >= m_columnSteps.size()) return false;
    QHash<qint64, qint64> starts;
    for (size_t row = 0; row < m_job->ranksTable.size(); ++row) {
        const int64_t runId = m_runs[m_job->ranksTable[row].runIndex].id;
        const int64_t index = cellStepIndex(int(row), column);
        if (const RunAnalysis *a = m_analysis->analysisOrStart(runId); a && index >= 0)
            starts.insert(runId, a->steps.steps[size_t(index)].start);
    }
    if (starts.size() < 2) return false;
    emit alignRequested(starts, m_columnSteps[size_t(column)]);
    return true;
}

int JobView::columnHeaderAt(QPoint pos) const { return m_job ? m_heatmap->columnHeaderAt(pos) : -1; }

void JobView::showAlignment(bool aligned, qint64 step) {
    const QSignalBlocker blockBox(m_alignBox), blockStep(m_alignStep);
    m_alignBox->setChecked(aligned);
    if (!aligned || !m_job) return;
    const auto &steps = m_columnSteps;
    const auto it = std::find(steps.begin(), steps.end(), step);
    if (it != steps.end()) m_alignStep->setCurrentIndex(int(it - steps.begin()));
}

void JobView::showCompact(bool on) {
    const QSignalBlocker block(m_compactBox);
    m_compactBox->setChecked(on);
}

void JobView::fillAlignSteps() {
    const QSignalBlocker block(m_alignStep);
    const int was = m_alignStep->currentIndex();
    m_alignStep->clear();
    for (int64_t step : m_columnSteps) m_alignStep->addItem(QString::number(step));
    if (was >= 0 && was < m_alignStep->count()) m_alignStep->setCurrentIndex(was);
    m_alignRow->setVisible(!m_columnSteps.empty());
}

void JobView::reload() {
    m_job.reset();
    m_runs.clear();
    // The job is the analysis service's (computed once per state of the ranks' analyses); the view
    // only asks and draws. A rank analysed in the background arrives with changed(), and reload again.
    const SessionJob *job = m_analysis->jobOrStart();
    bool pending = false;
    for (const RunRow &run : m_analysis->runs()) pending = pending || (run.rank && m_analysis->pending(run.id));
    if (pending) {
        m_finding->setText(tr("Analysing…"));
    } else if (job) {
        m_runs = job->ranks;  // JobRankRow::runIndex indexes m_runs
        m_job = job->job;
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
    // Where the job's critical path runs: through the rank last at the joins, and what it did before.
    if (m_job && m_job->criticalPath && m_job->criticalPath->stepsSet > 0) {
        const JobCriticalPath &p = *m_job->criticalPath;
        int best = -1;
        for (int c = 0; c < kCategoryCount; ++c)
            if (best < 0 || p.beforeJoinNs[size_t(c)] > p.beforeJoinNs[size_t(best)]) best = c;
        const QString line = tr("\nCritical path: rank %1 (last at the join in %2 of %3 steps), %4 ms before it, mostly %5.")
                                 .arg(p.rank)
                                 .arg(p.stepsSet)
                                 .arg(p.rankPerStep.size())
                                 .arg(p.beforeJoinMsMean, 0, 'f', 1)
                                 .arg(q(std::string(kCategoryNames[size_t(best)])));
        m_finding->setText(m_finding->text() + line);
        if (!p.topEvents.empty())
            m_finding->setToolTip(tr("Longest on rank %1's critical path: %2").arg(p.rank).arg(q(p.topEvents.front().name)));
    }
    updateGeometry();  // the finding's height sets the dock's minimum
    fillColumns();
    fillAlignSteps();
    drawHeatmap();
    drawBreakdown();
}

void JobView::fillColumns() {
    m_columnSteps.clear();
    m_cells.clear();
    if (!m_job || m_job->alignedSteps.empty()) return;
    if (m_job->alignedByOrder) {  // step numbers differ: the k-th step of every rank
        m_columnSteps = m_job->alignedSteps;
        for (const auto &indices : m_job->stepIndex) m_cells.emplace_back(indices.begin(), indices.end());
        return;
    }
    // Every step some rank has: one that a rank lacks is a hole in its row, not a column dropped.
    static const std::vector<AnalysisStep> kNone;
    std::vector<const std::vector<AnalysisStep> *> rankSteps;
    std::set<int64_t> all;
    for (const JobRankRow &row : m_job->ranksTable) {
        const RunAnalysis *a = m_analysis->analysisOrStart(m_runs[row.runIndex].id);
        rankSteps.push_back(a ? &a->steps.steps : &kNone);
        for (const AnalysisStep &s : *rankSteps.back()) all.insert(s.step);
    }
    m_columnSteps.assign(all.begin(), all.end());
    for (const auto *rank : rankSteps) {
        const std::vector<AnalysisStep> &steps = *rank;
        std::vector<int64_t> cells(m_columnSteps.size(), -1);
        for (size_t k = 0; k < steps.size(); ++k) {
            const auto at = std::lower_bound(m_columnSteps.begin(), m_columnSteps.end(), steps[k].step);
            if (cells[size_t(at - m_columnSteps.begin())] < 0) cells[size_t(at - m_columnSteps.begin())] = int64_t(k);
        }
        m_cells.push_back(std::move(cells));
    }
}

void JobView::drawHeatmap() {
    std::vector<QString> names;
    std::vector<const RunAnalysis *> analyses;
    for (size_t r = 0; m_job && r < m_job->ranksTable.size(); ++r) {
        names.push_back(tr("rank %1").arg(m_job->ranksTable[r].rank));
        analyses.push_back(m_analysis->analysisOrStart(m_runs[m_job->ranksTable[r].runIndex].id));
    }
    const auto step = [&](size_t r, size_t k) -> const AnalysisStep * {
        const int64_t index = m_cells[r][k];
        return analyses[r] && index >= 0 ? &analyses[r]->steps.steps[size_t(index)] : nullptr;
    };
    std::vector<std::vector<double>> ms(names.size(), std::vector<double>(m_columnSteps.size(), std::nan("")));
    // Arrival: the rank whose first all-reduce lasts longest came first (it spun until the last one
    // came); each rank is late by how much shorter its own is. Needs two ranks with one in the step.
    bool anyArrival = false;
    if (m_measure->currentData().toString() == QLatin1String("arrival")) {
        for (size_t k = 0; k < m_columnSteps.size(); ++k) {
            std::vector<int64_t> durs(names.size(), -1);
            int64_t first = -1;
            int with = 0;
            for (size_t r = 0; r < names.size(); ++r) {
                const int64_t index = m_cells[r][k];
                if (!step(r, k) || size_t(index) >= analyses[r]->firstCollective.size()) continue;
                const StepCollective &c = analyses[r]->firstCollective[size_t(index)];
                if (c.startNs < 0) continue;
                durs[r] = c.durNs;
                first = std::max(first, c.durNs);
                ++with;
            }
            if (with < 2) continue;
            for (size_t r = 0; r < names.size(); ++r)
                if (durs[r] >= 0) ms[r][k] = double(first - durs[r]) / 1e6, anyArrival = true;
        }
    }
    if (!anyArrival)  // step time, chosen, or a job without all-reduces to compare
        for (size_t r = 0; r < names.size(); ++r)
            for (size_t k = 0; k < m_columnSteps.size(); ++k)
                if (const AnalysisStep *s = step(r, k)) ms[r][k] = double(s->dur()) / 1e6;
    m_heatmap->setCells(names, m_columnSteps, ms, m_job && m_job->alignedByOrder,
                        anyArrival ? JobHeatmapPlot::Measure::Arrival : JobHeatmapPlot::Measure::StepTime);
}

void JobView::drawBreakdown() {
    double top = 1;
    std::vector<double> totals(m_job ? m_job->ranksTable.size() : 0, 0.0);
    for (int c = 0; c < kCategoryCount; ++c) {
        QVector<double> keys, values;
        for (size_t r = 0; m_job && r < m_job->ranksTable.size(); ++r) {
            const RunAnalysis *a = m_analysis->analysisOrStart(m_runs[m_job->ranksTable[r].runIndex].id);
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
    if (m_job) m_breakdown->xAxis->setTicker(rankTicks(*m_job, *m_breakdown));
    for (int i = 0; i < m_breakdown->legend->itemCount(); ++i)  // QCP measures the names a little short
        m_breakdown->legend->item(i)->setMargins(QMargins(2, 0, 8, 0));
    m_breakdown->legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);  // rows kept by fitLegend()
    m_breakdown->xAxis->setRange(-0.6, double(totals.size()) - 0.4);
    m_breakdown->yAxis->setRange(0, top * 1.08);
    m_breakdown->replot();
}

} // namespace stepscope

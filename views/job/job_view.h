#pragma once
// JobView: the job overview of a session whose runs are ranks of one data-parallel job — a rank ×
// step heatmap of step time (click a cell: every view, the timeline included, zooms to that step
// of that rank), one stacked bar per rank of its mean step-time breakdown (the 12 categories in
// their colours), and the straggler finding above them. It asks the shared AnalysisModel for the
// job and the ranks' analyses (it never analyses) and says "Analysing…" while a rank's analysis runs
// in the background. Below the
// finding, "Align ranks in the timeline at step [N]" (or a click on a step number under the heatmap)
// asks the timeline to stack the ranks with that step starting at the same x. Created by MainWindow
// as the "Job" dock, which wires its signals to the timeline.

#include "models/qt/session_models.h"
#include "models/analysis/engine/job_analysis.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"
#include "views/job/job_heatmap_plot.h"

#include <QHash>
#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPBars;
class QCheckBox;
class QComboBox;
class QLabel;

namespace stepscope {

class AnalysisModel;

class JobView : public QWidget {
    Q_OBJECT
public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit JobView(const SessionModels &models, QWidget *parent = nullptr);

    const std::optional<JobAnalysis> &job() const { return m_job; }
    JobHeatmapPlot *heatmap() const { return m_heatmap; }
    QCustomPlot *breakdown() const { return m_breakdown; }
    QString findingText() const;
    // The heatmap's columns: every step number some rank has (the job's aligned steps when the ranks
    // are aligned by order), and per ranks-table row and column the index into that rank's analysed
    // steps, -1 where it has no such step (a grey, hatched cell).
    const std::vector<int64_t> &columnSteps() const { return m_columnSteps; }
    int64_t cellStepIndex(int row, int column) const;
    // Zooms every view to step column `column` of ranks-table row `row` (what a click on the cell
    // does); false when there is no such cell.
    bool showCell(int row, int column);
    // Asks for the ranks aligned at step column `column` (alignRequested); false when fewer than
    // two ranks have it.
    bool alignColumn(int column);
    // The heatmap column whose step-number label is under widget position `pos` of the heatmap, or -1.
    int columnHeaderAt(QPoint pos) const;
    QCheckBox *alignBox() const { return m_alignBox; }
    QComboBox *alignStepBox() const { return m_alignStep; }
    QCheckBox *compactBox() const { return m_compactBox; }
    // What the heatmap colours: arrival at the first all-reduce (the default; remembered as the
    // setting job/heatmap) or step time.
    QComboBox *measureBox() const { return m_measure; }

    // Never cut: the dock cannot be made smaller than the words and the charts' minimum (the finding
    // wrapped in the side column, the align controls, charts that still show every label).
    QSize minimumSizeHint() const override;
    static constexpr int kSideWidth = 270;
    static constexpr int kPlotMinWidth = 200;
    static constexpr int kPlotMinHeight = 150;

public slots:
    // What the timeline shows now (TimelineView::alignmentChanged): the controls follow, silently.
    void showAlignment(bool aligned, qint64 step);
    // The timeline's compact preference (TimelineView::compactRanksChanged), silently.
    void showCompact(bool on);

signals:
    // A cell was clicked: run `runId`'s step, in that run's recorded times.
    void cellShown(qint64 runId, stepscope::NsRange recorded);
    // Each rank's run id -> where its step of the chosen column starts (recorded); `step` names it.
    void alignRequested(const QHash<qint64, qint64> &recordedStarts, qint64 step);
    void alignmentLeft();
    // "compact" ticked or unticked: aligned ranks show only their main thread and busiest GPU stream.
    void compactRequested(bool on);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void reload();
    void fitLegend();
    void fillColumns();
    void drawHeatmap();
    void drawBreakdown();
    void fillAlignSteps();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QLabel *m_finding;
    QWidget *m_alignRow;
    QCheckBox *m_alignBox;
    QComboBox *m_alignStep;
    QCheckBox *m_compactBox;
    QComboBox *m_measure;
    JobHeatmapPlot *m_heatmap;
    QCustomPlot *m_breakdown;
    std::vector<QCPBars *> m_bars;  // per category, stacked
    std::vector<RunRow> m_runs;
    std::optional<JobAnalysis> m_job;
    std::vector<int64_t> m_columnSteps;
    std::vector<std::vector<int64_t>> m_cells;  // [ranks-table row][column] -> step index or -1
};

} // namespace stepscope

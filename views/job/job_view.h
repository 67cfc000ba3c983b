#pragma once
// JobView: the job overview of a session whose runs are ranks of one data-parallel job — a rank ×
// step heatmap of step time (click a cell: every view, the timeline included, zooms to that step
// of that rank), one stacked bar per rank of its mean step-time breakdown (the 12 categories in
// their colours), and the straggler finding (JobAnalyzer) above them. It reads the shared
// AnalysisModel and says "Analysing…" while a rank's analysis runs in the background. Created by
// MainWindow as the "Job" dock.

#include "models/analysis/job_analysis.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPBars;
class QLabel;

namespace stepscope {

class AnalysisModel;

class JobView : public QWidget {
    Q_OBJECT
public:
    JobView(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);

    const std::optional<JobAnalysis> &job() const { return m_job; }
    QCustomPlot *heatmap() const { return m_heatmap; }
    QCustomPlot *breakdown() const { return m_breakdown; }
    QString findingText() const;
    // Zooms every view to aligned step `column` of ranks-table row `row` (what a click on the cell
    // does); false when there is no such cell.
    bool showCell(int row, int column);

private:
    void reload();
    void drawHeatmap();
    void drawBreakdown();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QLabel *m_finding;
    QCustomPlot *m_heatmap;
    QCPColorMap *m_map = nullptr;
    QCustomPlot *m_breakdown;
    std::vector<QCPBars *> m_bars;  // per category, stacked
    std::vector<RunRow> m_runs;
    std::optional<JobAnalysis> m_job;
};

} // namespace stepscope

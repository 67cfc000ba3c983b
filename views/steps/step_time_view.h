#pragma once
// StepTimeView: one stacked bar per training step for the chosen run, one colour per step-time
// category (DESIGN.md's 12, from the shared AnalysisModel), a legend, outlier steps marked with a
// triangle, a tooltip with the step's breakdown, and steps inside the shared visible range outlined;
// clicking a bar zooms every view to that step (TimeRangeController). "Show: Critical path"
// (remembered) stacks each step's critical path by category instead (CriticalPathAnalyzer), the rest
// of the step (waiting, untraced) hatched above it, so path and breakdown can be set side by side.
// Created by MainWindow.

#include "models/qt/session_models.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QComboBox;
class QLabel;

namespace stepscope {

class AnalysisModel;
class AnnotationPlotLayer;
struct RunAnalysis;

class StepTimeView : public QWidget {
    Q_OBJECT
public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit StepTimeView(const SessionModels &models, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    int barCount() const;  // steps drawn
    AnnotationPlotLayer *annotations() const { return m_annotations; }
    // The breakdown text shown as the tooltip of the step at plot key x (empty when none).
    QString stepSummary(double x) const;
    // The top share of the chart kept clear of bars when notes are drawn (their labels live there).
    static constexpr double kNoteBand = 0.38;
    // Only the bars of the steps in the visible range (an export of steps A-B); off: every step,
    // those in view marked.
    void setShowOnlyRange(bool on);
    // Shows run `runId` (a rank picked in the Job view); nothing when the session has no such run.
    void showRun(qint64 runId);
    // false: the breakdown per step; true: the critical path per step.
    void setShowCriticalPath(bool on);
    bool showsCriticalPath() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void reloadRuns();
    void reload();
    void applyRange(NsRange range);
    bool m_onlyRange = false;
    int stepAt(double x) const;
    void fitValueAxis();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QComboBox *m_runBox;
    QComboBox *m_showBox;  // breakdown or critical path
    QLabel *m_summary;
    QCustomPlot *m_plot;
    std::vector<QCPBars *> m_bars;  // per category, stacked
    QCPBars *m_projected = nullptr;  // outline: each step with the bottleneck fixed
    QCPBars *m_offPath = nullptr;    // critical path shown: the part of each step not on it
    QCPGraph *m_outliers = nullptr;
    QCPGraph *m_inRange = nullptr;
    const RunAnalysis *m_current = nullptr;
    AnnotationPlotLayer *m_annotations = nullptr;  // notes as markers over the steps they span
    double m_maxMs = 1;                            // the longest step
};

} // namespace stepscope

#pragma once
// StepTimeView: one bar per training step (duration, ms) for the chosen run, steps inside the
// shared visible range highlighted; clicking a bar zooms every view to that step. Issue-6 analysis
// turns the bars into per-category stacks through the same view.

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QCustomPlot;
class QCPBars;
class QComboBox;

namespace stepscope {

class StepTimeView : public QWidget {
    Q_OBJECT
public:
    StepTimeView(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    int barCount() const;

private:
    void reload();
    void applyRange(NsRange range);
    void onPlotClick(double x);

    SessionModel *m_session;
    TimeRangeController *m_time;
    QComboBox *m_runBox;
    QCustomPlot *m_plot;
    QCPBars *m_bars = nullptr;
    QCPBars *m_inRange = nullptr;
    std::vector<StepRow> m_steps;
};

} // namespace stepscope

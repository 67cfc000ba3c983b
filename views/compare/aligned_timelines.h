#pragma once
// AlignedTimelines stacks the timelines of a comparison's two runs, each over its own session
// (opened read-only) and time range, on one relative axis: the chosen step starts at the same place
// in both, and a zoom or pan of either moves the other by the same amount from that step. "Align at
// step" picks the step (default: the first step both runs have) and zooms both to it.

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

#include <vector>

class QLabel;
class QSpinBox;

namespace stepscope {

class TimelinePaneView;

class AlignedTimelines : public QWidget {
    Q_OBJECT
public:
    using StepStarts = std::vector<std::pair<int64_t, int64_t>>;  // (step number, absolute start ns)

    explicit AlignedTimelines(QWidget *parent = nullptr);

    // Opens both session files read-only; false (message in error) when one cannot be opened.
    bool setSessions(const QString &baseSession, const QString &baseLabel, const StepStarts &baseSteps,
                     const QString &newSession, const QString &newLabel, const StepStarts &newSteps, QString *error);
    // Aligns both at step `step` (a step both runs have) and zooms both to it; false when one lacks it.
    bool alignAt(int64_t step);
    int64_t alignedStep() const { return m_step; }
    // new-run time = base-run time + offset(), for the aligned step.
    int64_t offset() const { return m_offset; }

    TimeRangeController *baseTime() const { return m_baseTime; }
    TimeRangeController *newTime() const { return m_newTime; }
    // Finds `name` in both timelines (their search boxes).
    void search(const QString &name);
    // Hides the align box and both timelines' bars (a picture of the timelines shows no controls).
    void setControlsVisible(bool on);

private:
    void follow(TimeRangeController *from, TimeRangeController *to, int64_t shift);

    SessionModel *m_baseSession, *m_newSession;
    TimeRangeController *m_baseTime, *m_newTime;
    TimelinePaneView *m_basePane = nullptr, *m_newPane = nullptr;
    QLabel *m_baseLabel, *m_newLabel;
    QSpinBox *m_stepBox;
    QWidget *m_alignRow = nullptr;
    StepStarts m_baseSteps, m_newSteps;
    int64_t m_step = 0, m_offset = 0;
    bool m_following = false;
};

} // namespace stepscope

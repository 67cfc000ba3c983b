#pragma once
// TimelinePaneView is what MainWindow puts in its centre: a slim tool bar (search over the whole
// session with previous/next and a hit counter, "go to step", "align ranks" at that step (sessions
// of several runs), the flow-arrow toggle, the critical-path toggle (remembered; each step's path as
// bands in its categories' colours, critical_path_marks.h)) above the TimelineView. It owns the TimelineSearchModel and turns its current hit into a slice selection.

#include "models/qt/session_models.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"
#include "models/timeline/timeline_search_model.h"
#include "views/timeline/timeline_view.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace stepscope {

class AnalysisModel;

class CapturePicker;

class TimelinePaneView : public QWidget {
    Q_OBJECT
public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit TimelinePaneView(const SessionModels &models, QWidget *parent = nullptr);

    TimelineView *timeline() const { return m_timeline; }
    TimelineSearchModel *search() const { return m_search; }
    QLineEdit *searchField() const { return m_searchField; }
    CapturePicker *capturePicker() const { return m_capturePicker; }
    // Puts `text` into the search box, searches, and makes current the first hit inside the visible
    // range, else the hit nearest to it (the timeline selects and shows it). Used by MainWindow when an
    // op is selected in the op statistics.
    void search(const QString &text);
    // Shows or hides the search / step / flows bar (hidden while a picture is taken: no controls in
    // exports).
    void setBarVisible(bool on);
    // The "go to step" box for a new session: the step the ranks are aligned at, else the session's
    // first step (MainWindow, when a session opens).
    void resetStepBox();
    void setCriticalPathShown(bool on);
    bool criticalPathShown() const;

private:
    void runSearch(bool backwards);
    void showNearestHit();  // the hit on screen, else the nearest one
    void updateHitLabel();
    void updateCriticalPath();

    SessionModel *m_session;
    AnalysisModel *m_analysis;  // the session's (critical path marks); null without a session
    TimelineView *m_timeline;
    TimelineSearchModel *m_search;
    QLineEdit *m_searchField;
    QLabel *m_hitLabel;
    QSpinBox *m_stepBox;
    QToolButton *m_align;  // ranks aligned at the box's step; shown for sessions of several runs
    QToolButton *m_flows;
    QToolButton *m_path;
    CapturePicker *m_capturePicker;  // shown for sessions of captures recorded apart
};

} // namespace stepscope

#pragma once
// SavedViewListView is the Saved views dock: the session's named ranges (with the timeline's track
// layout), "Save current view", rename/delete, previous/next to step through them, and "From finding"
// which turns one finding into saved views over its evidence (e.g. every checkpoint step) in one click.
// Applying a view sets the shared TimeRangeController's range and the timeline's layout. Created by
// MainWindow, which gives it the timeline.

#include "models/qt/session_models.h"
#include "models/annotations/saved_view_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QListWidget;
class QMenu;
class QToolButton;

namespace stepscope {

class AnalysisModel;

class TimelineView;

class SavedViewListView : public QWidget {
    Q_OBJECT
public:
    SavedViewListView(const SessionModels &models, TimelineView *timeline = nullptr,
                      QWidget *parent = nullptr);

    QListWidget *list() const { return m_list; }
    QMenu *findingMenu() const { return m_findingMenu; }  // filled with the findings when shown
    SavedViewModel *model() const { return m_model; }
    // Saves the visible range (and timeline layout) under `name`; returns the id, 0 when it cannot.
    int64_t saveCurrent(const QString &name);
    void apply(int index);
    void next();
    void previous();
    // Adds saved views for finding `index` of run `runId` (AnalysisModel numbering); returns how many.
    int addFromFinding(int64_t runId, int index);

private:
    void reload();
    void fillFindingMenu();

    SessionModel *m_session;
    AnalysisModel *m_analysis;  // the session's (a saved view's step and findings)
    TimeRangeController *m_time;
    TimelineView *m_timeline;
    SavedViewModel *m_model;
    QListWidget *m_list;
    QMenu *m_findingMenu;
};

} // namespace stepscope

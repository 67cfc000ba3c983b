#pragma once
// AnnotationDocks adds annotations and saved views to a MainWindow: the Annotations dock
// (AnnotationListView), the Saved views dock (SavedViewListView) and the Annotate menu (annotate the
// selection or the visible range, undo/redo, save a view, step through saved views, saved views from a
// finding). MainWindow creates it once and otherwise stays unaware of annotations.

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QMenuBar;

namespace stepscope {
class AnnotationListView;
class SavedViewListView;
class SessionModel;
class TimeRangeController;
class TimelineView;
}

namespace stepscope::gui {

class AnnotationDocks : public QObject {
    Q_OBJECT
public:
    AnnotationDocks(QMainWindow *window, SessionModel *session, TimeRangeController *time, TimelineView *timeline);

    AnnotationListView *annotationList() const { return m_list; }
    SavedViewListView *savedViews() const { return m_saved; }
    // Adds the Annotate menu to `bar` (before `before`, when given).
    QMenu *addMenu(QMenuBar *bar, QAction *before = nullptr);

private:
    void annotate(bool selectionOnly);

    QMainWindow *m_window;
    SessionModel *m_session;
    TimeRangeController *m_time;
    AnnotationListView *m_list;
    SavedViewListView *m_saved;
    QDockWidget *m_listDock, *m_savedDock;
};

} // namespace stepscope::gui

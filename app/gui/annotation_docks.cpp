#include "app/gui/annotation_docks.h"

#include "models/annotations/annotation_model.h"
#include "models/qt/time_range_controller.h"
#include "views/annotations/annotation_dialog.h"
#include "views/annotations/annotation_list_view.h"
#include "views/annotations/saved_view_list_view.h"

#include <QDockWidget>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QUndoStack>

namespace stepscope::gui {

AnnotationDocks::AnnotationDocks(QMainWindow *window, SessionModel *session, TimeRangeController *time, TimelineView *timeline)
    : QObject(window), m_window(window), m_session(session), m_time(time), m_list(new AnnotationListView(SessionModels::of(session, time), window)),
      m_saved(new SavedViewListView(SessionModels::of(session, time), timeline, window)), m_listDock(new QDockWidget(tr("Annotations"), window)),
      m_savedDock(new QDockWidget(tr("Saved views"), window)) {
    m_listDock->setObjectName(QStringLiteral("annotationsDock"));  // needed for saveState()
    m_listDock->setWidget(m_list);
    m_savedDock->setObjectName(QStringLiteral("savedViewsDock"));
    m_savedDock->setWidget(m_saved);
    window->addDockWidget(Qt::RightDockWidgetArea, m_listDock);
    window->addDockWidget(Qt::RightDockWidgetArea, m_savedDock);
    // Beside the session overview and details, which stay in front.
    if (auto *sessionDock = window->findChild<QDockWidget *>(QStringLiteral("sessionDock"))) {
        window->tabifyDockWidget(sessionDock, m_listDock);
        window->tabifyDockWidget(m_listDock, m_savedDock);
        sessionDock->raise();
    }
}

void AnnotationDocks::annotate(bool selectionOnly) {
    NsRange r = m_time->selection();
    if (!r.valid() && !selectionOnly) r = m_time->range();
    if (!r.valid()) return;
    if (AnnotationDialog::create(m_window, AnnotationModel::of(m_session), r.start, r.end) != 0) {
        m_listDock->show();
        m_listDock->raise();
    }
}

QMenu *AnnotationDocks::addMenu(QMenuBar *bar, QAction *before) {
    auto *menu = new QMenu(tr("&Annotate"), m_window);
    bar->insertMenu(before, menu);
    QAction *sel = menu->addAction(tr("Annotate &Selection…"), QKeySequence(Qt::CTRL | Qt::Key_M), this, [this] { annotate(true); });
    menu->addAction(tr("Annotate &Visible Range…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), this, [this] { annotate(false); });
    auto updateSel = [this, sel] { sel->setEnabled(m_time->selection().valid()); };
    connect(m_time, &TimeRangeController::selectionChanged, sel, updateSel);
    updateSel();
    menu->addSeparator();
    QUndoStack *undo = AnnotationModel::of(m_session)->undoStack();
    QAction *undoAction = undo->createUndoAction(menu, tr("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction *redoAction = undo->createRedoAction(menu, tr("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    menu->addAction(undoAction);
    menu->addAction(redoAction);
    menu->addSeparator();
    menu->addAction(tr("Save &View…"), QKeySequence(Qt::CTRL | Qt::Key_B), this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(m_window, tr("Save view"), tr("Name:"), QLineEdit::Normal,
                                                   tr("View %1").arg(m_saved->model()->views().size() + 1), &ok);
        if (ok && !name.trimmed().isEmpty() && m_saved->saveCurrent(name.trimmed())) {
            m_savedDock->show();
            m_savedDock->raise();
        }
    });
    menu->addAction(tr("&Previous Saved View"), QKeySequence(Qt::Key_BracketLeft), m_saved, &SavedViewListView::previous);
    menu->addAction(tr("&Next Saved View"), QKeySequence(Qt::Key_BracketRight), m_saved, &SavedViewListView::next);
    QMenu *fromFinding = m_saved->findingMenu();
    fromFinding->setTitle(tr("Saved Views from &Finding"));
    menu->addMenu(fromFinding);
    return menu;
}

} // namespace stepscope::gui

#pragma once
// AnnotationListView is the Annotations dock: every note of the session (time, duration, colour,
// text), with Edit, Delete and Undo. Clicking a note zooms every view to it through the shared
// TimeRangeController (a range note with a margin; a point note centred at the current zoom width).
// Created by MainWindow; reads and edits the shared AnnotationModel.

#include "models/annotations/annotation_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;
class QToolButton;

namespace stepscope {

class AnnotationListView : public QWidget {
    Q_OBJECT
public:
    AnnotationListView(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    // Zooms every view to the note (what a click does); false for an unknown id.
    bool goTo(int64_t id);
    // The range goTo() zooms to for a note, given the current visible width.
    static NsRange zoomRangeFor(const Annotation &a, int64_t currentWidthNs);

private:
    void reload();
    int64_t currentId() const;

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnnotationModel *m_model;
    QTreeWidget *m_tree;
    QToolButton *m_edit, *m_delete, *m_undo;
};

} // namespace stepscope

#pragma once
// AnnotationListView is the Annotations dock: every note of the session (time, duration, colour,
// text), with Edit, Delete and Undo. Clicking a note zooms every view to it through the shared
// TimeRangeController (a range note with a margin; a point note centred at the current zoom width).
// Created by MainWindow; reads and edits the shared AnnotationModel. The rows are a thin table model
// over the AnnotationModel's list, so only the rows on screen are ever formatted or measured (a
// session may hold 200 k notes), and a row shows its note's first line, bounded.

#include "models/qt/session_models.h"
#include "models/annotations/annotation_model.h"
#include "models/qt/time_range_controller.h"

#include <QModelIndex>
#include <QWidget>

class QTreeView;
class QToolButton;

namespace stepscope {

class AnnotationListView : public QWidget {
    Q_OBJECT
public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit AnnotationListView(const SessionModels &models, QWidget *parent = nullptr);

    QTreeView *tree() const { return m_tree; }
    // Zooms every view to the note (what a click does); false for an unknown id.
    bool goTo(int64_t id);
    // The range goTo() zooms to for a note, given the current visible width.
    static NsRange zoomRangeFor(const Annotation &a, int64_t currentWidthNs);

private:
    void reload();
    int64_t currentId() const;
    int64_t idAt(const QModelIndex &index) const;

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnnotationModel *m_model;
    class Rows;
    Rows *m_rows;
    QTreeView *m_tree;
    QToolButton *m_edit, *m_delete, *m_undo;
};

} // namespace stepscope

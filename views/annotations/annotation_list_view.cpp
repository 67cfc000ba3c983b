#include "views/annotations/annotation_list_view.h"

#include "models/timeline/range_aggregate_model.h"
#include "views/annotations/annotation_dialog.h"
#include "views/annotations/annotation_painter.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPixmap>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope {

AnnotationListView::AnnotationListView(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QWidget(parent), m_session(session), m_time(time), m_model(AnnotationModel::of(session)), m_tree(new QTreeWidget(this)),
      m_edit(new QToolButton(this)), m_delete(new QToolButton(this)), m_undo(new QToolButton(this)) {
    setObjectName(QStringLiteral("annotationList"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("At"), tr("Duration"), tr("Note")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Click a note to zoom every view to it; double-click to edit"));
    m_edit->setText(tr("Edit…"));
    m_delete->setText(tr("Delete"));
    m_delete->setShortcut(QKeySequence::Delete);
    m_undo->setDefaultAction(m_model->undoStack()->createUndoAction(this, tr("Undo")));
    m_undo->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_edit);
    bar->addWidget(m_delete);
    bar->addWidget(m_undo);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_tree, 1);

    connect(m_model, &AnnotationModel::changed, this, &AnnotationListView::reload);
    connect(m_time, &TimeRangeController::fullRangeChanged, this, &AnnotationListView::reload);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) { goTo(item->data(0, Qt::UserRole).toLongLong()); });
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) {
        AnnotationDialog::edit(this, m_model, item->data(0, Qt::UserRole).toLongLong());
    });
    connect(m_edit, &QToolButton::clicked, this, [this] {
        if (const int64_t id = currentId(); id > 0) AnnotationDialog::edit(this, m_model, id);
    });
    connect(m_delete, &QToolButton::clicked, this, [this] {
        if (const int64_t id = currentId(); id != 0) m_model->remove(id);
    });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this] {
        m_edit->setEnabled(currentId() > 0);
        m_delete->setEnabled(currentId() != 0);
    });
    reload();
}

int64_t AnnotationListView::currentId() const {
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, Qt::UserRole).toLongLong() : 0;
}

void AnnotationListView::reload() {
    const int64_t keep = currentId();
    m_tree->clear();
    const int64_t origin = m_time->fullRange().valid() ? m_time->fullRange().start : 0;
    for (const Annotation &a : m_model->annotations()) {
        auto *item = new QTreeWidgetItem(m_tree);
        QPixmap swatch(12, 12);
        swatch.fill(AnnotationPainter::color(a));
        item->setIcon(0, QIcon(swatch));
        item->setText(0, formatDurationNs(a.startNs - origin));
        item->setText(1, a.isPoint() ? tr("point") : formatDurationNs(a.endNs - a.startNs));
        item->setText(2, QString::fromStdString(a.text) + (a.transient ? tr(" (not saved)") : QString()));
        item->setToolTip(2, QString::fromStdString(a.text).toHtmlEscaped());  // tooltips guess rich text
        item->setData(0, Qt::UserRole, qint64(a.id));
        if (a.id == keep) m_tree->setCurrentItem(item);
    }
    m_tree->resizeColumnToContents(0);
    m_tree->resizeColumnToContents(1);
    m_edit->setEnabled(currentId() > 0);
    m_delete->setEnabled(currentId() != 0);
}

NsRange AnnotationListView::zoomRangeFor(const Annotation &a, int64_t currentWidthNs) {
    if (a.isPoint()) {
        const int64_t half = std::max<int64_t>(500, currentWidthNs / 2);
        return {a.startNs - half, a.startNs + half};
    }
    const int64_t margin = std::max<int64_t>(1, (a.endNs - a.startNs) / 10);
    return {a.startNs - margin, a.endNs + margin};
}

bool AnnotationListView::goTo(int64_t id) {
    const Annotation *a = m_model->find(id);
    if (!a) return false;
    m_time->setRange(zoomRangeFor(*a, m_time->range().duration()));
    return true;
}

} // namespace stepscope

#include "views/annotations/annotation_list_view.h"

#include "models/text/display_text.h"
#include "models/text/time_format.h"
#include "views/annotations/annotation_dialog.h"
#include "views/annotations/annotation_painter.h"

#include <QAbstractTableModel>
#include <QHBoxLayout>
#include <QHash>
#include <QIcon>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPixmap>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope {

// The table behind the dock: one row per note of the AnnotationModel, formatted when asked for
// (only for the rows on screen). Reset when the notes or the session's origin change.
class AnnotationListView::Rows : public QAbstractTableModel {
public:
    Rows(AnnotationModel *model, TimeRangeController *time, QObject *parent)
        : QAbstractTableModel(parent), m_model(model), m_time(time) {}
    void reload() {
        beginResetModel();
        m_icons.clear();
        endResetModel();
    }
    int rowCount(const QModelIndex &parent = {}) const override {
        return parent.isValid() ? 0 : int(m_model->annotations().size());
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 3; }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
        return section == 0 ? tr("At") : section == 1 ? tr("Duration") : tr("Note");
    }
    QVariant data(const QModelIndex &index, int role) const override {
        if (!index.isValid() || index.row() >= rowCount()) return {};
        const Annotation &a = m_model->annotations()[size_t(index.row())];
        const int col = index.column();
        if (role == Qt::UserRole) return qint64(a.id);
        if (role == Qt::DecorationRole && col == 0) return icon(a);
        if (role == Qt::ToolTipRole && col == 2)  // tooltips guess rich text
            return excerptText(a.text, 2000).toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
        if (role != Qt::DisplayRole) return {};
        const int64_t origin = m_time->fullRange().valid() ? m_time->fullRange().start : 0;
        if (col == 0) return formatTime(a.startNs - origin);
        if (col == 1) return a.isPoint() ? tr("point") : formatTime(a.endNs - a.startNs);
        return AnnotationPainter::labelText(a) + (a.transient ? tr(" (not saved)") : QString());
    }
    int rowOf(int64_t id) const {
        const auto &all = m_model->annotations();
        for (size_t i = 0; i < all.size(); ++i)
            if (all[i].id == id) return int(i);
        return -1;
    }

private:
    QIcon icon(const Annotation &a) const {
        const QString key = QString::fromStdString(a.color);
        auto it = m_icons.constFind(key);
        if (it != m_icons.constEnd()) return *it;
        QPixmap swatch(12, 12);
        swatch.fill(AnnotationPainter::color(a));
        return *m_icons.insert(key, QIcon(swatch));
    }

    AnnotationModel *m_model;
    TimeRangeController *m_time;
    mutable QHash<QString, QIcon> m_icons;  // by colour: a handful, not one per note
};

AnnotationListView::AnnotationListView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_model(models.annotations),
      m_rows(new Rows(m_model, models.time, this)), m_tree(new QTreeView(this)), m_edit(new QToolButton(this)),
      m_delete(new QToolButton(this)), m_undo(new QToolButton(this)) {
    setObjectName(QStringLiteral("annotationList"));
    m_tree->setModel(m_rows);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("Click a note to zoom every view to it; double-click to edit"));
    // Time columns sized from a typical value, not by measuring every row.
    const QFontMetrics fm(m_tree->font());
    m_tree->setColumnWidth(0, fm.horizontalAdvance(QStringLiteral("000.000 ms")) + 40);
    m_tree->setColumnWidth(1, fm.horizontalAdvance(QStringLiteral("000.000 ms")) + 16);
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
    connect(m_tree, &QTreeView::clicked, this, [this](const QModelIndex &index) { goTo(idAt(index)); });
    connect(m_tree, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        AnnotationDialog::edit(this, m_model, idAt(index));
    });
    connect(m_edit, &QToolButton::clicked, this, [this] {
        if (const int64_t id = currentId(); id > 0) AnnotationDialog::edit(this, m_model, id);
    });
    connect(m_delete, &QToolButton::clicked, this, [this] {
        if (const int64_t id = currentId(); id != 0) m_model->remove(id);
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        m_edit->setEnabled(currentId() > 0);
        m_delete->setEnabled(currentId() != 0);
    });
    reload();
}

int64_t AnnotationListView::idAt(const QModelIndex &index) const {
    return index.isValid() ? m_rows->index(index.row(), 0).data(Qt::UserRole).toLongLong() : 0;
}

int64_t AnnotationListView::currentId() const { return idAt(m_tree->currentIndex()); }

void AnnotationListView::reload() {
    const int64_t keep = currentId();
    m_rows->reload();
    if (const int row = keep != 0 ? m_rows->rowOf(keep) : -1; row >= 0) m_tree->setCurrentIndex(m_rows->index(row, 0));
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

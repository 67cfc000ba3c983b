#include "views/analysis/name_column.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace stepscope {

namespace {
constexpr int kMinNameWidth = 160;  // below this a name says nothing
constexpr double kNameShare = 0.5;   // long names get this share of the table; the last columns scroll
constexpr int kMaxRowsMeasured = 5000;  // enough for any real table; bounds the cost of a huge one
} // namespace

NameColumn::NameColumn(QTableView *table, int column) : QObject(table), m_table(table), m_column(column) {
    QHeaderView *header = table->horizontalHeader();
    header->setSectionResizeMode(column, QHeaderView::Interactive);
    header->setStretchLastSection(false);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false);
    table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(header, &QHeaderView::sectionResized, this, [this](int section, int, int) {
        if (section == m_column && !m_fitting) m_userSized = true;
    });
    // New rows: fit once the other (resize-to-contents) columns have their widths.
    auto later = [this] { QTimer::singleShot(0, this, &NameColumn::fit); };
    if (QAbstractItemModel *m = table->model()) {
        connect(m, &QAbstractItemModel::modelReset, this, later);
        connect(m, &QAbstractItemModel::rowsInserted, this, later);
        connect(m, &QAbstractItemModel::layoutChanged, this, later);
    }
    m_viewport = table->viewport();
    table->viewport()->installEventFilter(this);

    auto *copy = new QAction(tr("Copy name"), table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &NameColumn::copyCurrent);
    table->addAction(copy);
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table, &QWidget::customContextMenuRequested, this, [this, copy](QPoint pos) {
        const QModelIndex at = m_table->indexAt(pos);
        if (!at.isValid()) return;
        m_table->setCurrentIndex(at);
        QMenu menu(m_table);
        menu.addAction(copy);
        menu.exec(m_table->viewport()->mapToGlobal(pos));
    });
}

int NameColumn::wantedWidth() const {
    const QAbstractItemModel *m = m_table->model();
    if (!m) return kMinNameWidth;
    const QFontMetrics fm(m_table->font());
    int widest = fm.horizontalAdvance(m->headerData(m_column, Qt::Horizontal).toString());
    const int rows = std::min(m->rowCount(), kMaxRowsMeasured);
    for (int r = 0; r < rows; ++r) widest = std::max(widest, fm.horizontalAdvance(m->index(r, m_column).data().toString()));
    // The cell's margins and focus frame, as the delegate draws them.
    return widest + 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 16;
}

void NameColumn::fit() {
    if (m_userSized || !m_table->model()) return;
    const QHeaderView *header = m_table->horizontalHeader();
    int others = 0;
    for (int c = 0; c < header->count(); ++c)
        if (c != m_column && !header->isSectionHidden(c)) others += header->sectionSize(c);
    const int room = m_table->viewport()->width() - others;
    // All the room the other columns leave; names that want more get up to kNameShare of the table
    // (the last columns, kernel details, then scroll sideways into view); never less than a readable
    // minimum. What still does not fit is elided in the middle, whole in the tooltip.
    const int wanted = wantedWidth();
    const int share = std::max(kMinNameWidth, int(kNameShare * m_table->viewport()->width()));
    const int width = std::max(room, std::min(wanted, share));
    m_fitting = true;
    m_table->setColumnWidth(m_column, width);
    m_fitting = false;
}

QString NameColumn::currentName() const {
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.siblingAtColumn(m_column).data().toString() : QString();
}

void NameColumn::copyCurrent() const {
    const QString name = currentName();
    if (!name.isEmpty()) QApplication::clipboard()->setText(name);
}

bool NameColumn::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_viewport && event->type() == QEvent::Resize) QTimer::singleShot(0, this, &NameColumn::fit);
    return QObject::eventFilter(watched, event);
}

} // namespace stepscope

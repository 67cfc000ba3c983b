#include "views/timeline/slice_details_view.h"

#include "models/text/display_text.h"
#include "views/timeline/timeline_view.h"
#include "models/text/time_format.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <functional>

namespace stepscope {

namespace {
constexpr int kSliceIdRole = Qt::UserRole + 1;
}

SliceDetailsView::SliceDetailsView(TimelineView *timeline, TimeRangeController *time, QWidget *parent)
    : QTabWidget(parent), m_timeline(timeline), m_time(time),
      m_aggregate(new RangeAggregateModel(timeline->model(), this)), m_tree(new QTreeWidget(this)),
      m_table(new QTableView(this)), m_rangeLabel(new QLabel(this)) {
    setObjectName(QStringLiteral("sliceDetailsView"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Field"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    addTab(m_tree, tr("Slice"));
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](QPoint pos) {
        QMenu menu(this);
        addCopyActions(menu, m_tree->itemAt(pos));
        menu.exec(m_tree->viewport()->mapToGlobal(pos));
    });

    auto *rangePage = new QWidget(this);
    auto *layout = new QVBoxLayout(rangePage);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_rangeLabel);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_aggregate);
    proxy->setSortRole(RangeAggregateModel::SortRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RangeAggregateModel::TotalColumn, Qt::DescendingOrder);
    // The numbers as wide as they are (never cut), the names the rest of a narrow dock (elided in
    // the middle, whole in the tooltip).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(RangeAggregateModel::NameColumn, QHeaderView::Stretch);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    layout->addWidget(m_table);
    addTab(rangePage, tr("Range"));
    m_rangeLabel->setText(tr("Shift-drag on the timeline or drag on its ruler to select a range."));

    connect(timeline, &TimelineView::sliceSelected, this, &SliceDetailsView::showSlice);
    m_aggregateTimer.setSingleShot(true);
    m_aggregateTimer.setInterval(250);  // a drag changes the selection every mouse move
    connect(&m_aggregateTimer, &QTimer::timeout, this, [this] { m_aggregate->requestRange(m_time->selection()); });
    connect(m_aggregate, &RangeAggregateModel::busyChanged, this, [this](bool busy) {
        const NsRange sel = m_time->selection();
        if (!sel.valid()) return;
        m_rangeLabel->setText(busy ? tr("Adding up the slices in the selected %1…").arg(formatTime(sel.duration()))
                                   : tr("Slices starting in the selected %1, by name").arg(formatTime(sel.duration())));
    });
    connect(time, &TimeRangeController::selectionChanged, this, &SliceDetailsView::onSelection);
    connect(m_tree, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) {
        const QVariant id = item->data(0, kSliceIdRole);
        if (!id.isValid()) return;
        m_timeline->revealSlice(id.toLongLong());
        // The keys belong to the timeline again: W/A/S/D work without a click first.
        m_timeline->setFocus(Qt::OtherFocusReason);
    });
}

void SliceDetailsView::onSelection(NsRange selection) {
    if (selection.valid()) {
        m_rangeLabel->setText(tr("Slices starting in the selected %1, by name").arg(formatTime(selection.duration())));
        setCurrentIndex(1);
        m_aggregateTimer.start();
    } else {
        m_aggregateTimer.stop();
        m_aggregate->setRange({});
        m_rangeLabel->setText(tr("Shift-drag on the timeline or drag on its ruler to select a range."));
    }
}

void SliceDetailsView::addCopyActions(QMenu &menu, QTreeWidgetItem *item) {
    if (item) {
        menu.addAction(tr("Copy Value"), this, [item] { QGuiApplication::clipboard()->setText(item->text(1)); });
        menu.addAction(tr("Copy “%1: …”").arg(item->text(0)), this, [item] {
            QGuiApplication::clipboard()->setText(item->text(0) + QStringLiteral(": ") + item->text(1));
        });
    }
    QAction *all = menu.addAction(tr("Copy All Details"), this, [this] {
        QStringList lines;
        std::function<void(QTreeWidgetItem *, int)> add = [&](QTreeWidgetItem *it, int depth) {
            lines << QString(depth * 2, QLatin1Char(' ')) + it->text(0) + (it->text(1).isEmpty() ? QString() : QStringLiteral(": ") + it->text(1));
            for (int c = 0; c < it->childCount(); ++c) add(it->child(c), depth + 1);
        };
        for (int i = 0; i < m_tree->topLevelItemCount(); ++i) add(m_tree->topLevelItem(i), 0);
        QGuiApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
    });
    all->setEnabled(m_tree->topLevelItemCount() > 0);
}

void SliceDetailsView::showSlice(const SliceDetails &d) {
    m_tree->clear();
    if (!d.valid()) return;
    setCurrentIndex(0);
    const int64_t origin = m_time->fullRange().valid() ? m_time->fullRange().start : 0;
    auto add = [this](QTreeWidgetItem *parent, const QString &k, const QString &value) {
        const QString v = displayText(value);  // names from files: control characters shown, not passed on
        auto *it = parent ? new QTreeWidgetItem(parent, {k, v}) : new QTreeWidgetItem(m_tree, {k, v});
        return it;
    };
    add(nullptr, tr("Name"), d.name);
    add(nullptr, tr("Category"), d.category);
    add(nullptr, tr("Track"), d.trackName);
    add(nullptr, tr("Start"), formatTime(d.startNs - origin));
    add(nullptr, tr("Duration"), formatTime(d.durNs));
    add(nullptr, tr("Self time"), formatTime(d.selfNs, d.durNs));  // in the duration's unit, beside it
    add(nullptr, tr("Depth"), QString::number(d.depth));
    if (d.correlation) add(nullptr, tr("Correlation"), QString::number(*d.correlation));
    if (!d.argsJson.isEmpty()) addArgs(add(nullptr, tr("Args"), QString()), d.argsJson);
    auto addLinks = [&](const QString &title, const std::vector<SliceDetails::Link> &links) {
        if (links.empty()) return;
        QTreeWidgetItem *group = add(nullptr, title, QString::number(links.size()));
        for (const auto &l : links) {
            QTreeWidgetItem *it = add(group, l.relation, QStringLiteral("%1 — %2 at %3").arg(l.name, formatTime(l.durNs),
                                                                                             formatTime(l.startNs - origin)));
            it->setData(0, kSliceIdRole, qlonglong(l.id));
            it->setToolTip(1, tr("Double-click to select"));
        }
        group->setExpanded(true);
    };
    addLinks(tr("Linked"), d.linked);
    addLinks(tr("Parents"), d.parents);
    m_tree->expandToDepth(0);
}

void SliceDetailsView::addArgs(QTreeWidgetItem *parent, const QString &json) {
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
    if (!doc.isObject()) {
        new QTreeWidgetItem(parent, {QString(), displayText(json)});
        return;
    }
    const QJsonObject obj = doc.object();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QJsonValue v = it.value();
        const QString text = v.isString() ? v.toString()
                           : v.isDouble() ? QString::number(v.toDouble(), 'g', 15)
                           : QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                                                   .toJson(QJsonDocument::Compact));
        new QTreeWidgetItem(parent, {displayText(it.key()),
                                     v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false")) : displayText(text)});
    }
    parent->setExpanded(true);
}

} // namespace stepscope

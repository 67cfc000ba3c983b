#include "views/utilization/range_stats_table.h"

#include "views/analysis/name_column.h"
#include "views/utilization/utilization_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope {

namespace {
constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kFirstNumberColumn = 3;

// Number cells sort by value, not by their text ("9 MiB" before "10 GiB" is wrong).
class SortedItem : public QTableWidgetItem {
public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem &other) const override {
        const QVariant a = data(kSortRole), b = other.data(kSortRole);
        if (a.isValid() && b.isValid()) return a.toDouble() < b.toDouble();
        if (a.isValid() != b.isValid()) return !a.isValid();  // "–" (no samples) below every number
        return QTableWidgetItem::operator<(other);
    }
};
} // namespace

RangeStatsTable::RangeStatsTable(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new QTableWidget(0, 7, this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_table);
    const QString headers[] = {tr("Chart"), tr("Series"), tr("Sampling"), tr("Samples"), tr("Min"), tr("Mean"), tr("Max")};
    for (int c = 0; c < 7; ++c) {
        auto *h = new QTableWidgetItem(headers[c]);
        // A first click on a number column shows the biggest first.
        h->setData(Qt::InitialSortOrderRole, int(c >= kFirstNumberColumn ? Qt::DescendingOrder : Qt::AscendingOrder));
        m_table->setHorizontalHeaderItem(c, h);
    }
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Every row counts when sizing, not only the few in view: a long name further down is not cut.
    m_table->horizontalHeader()->setResizeContentsPrecision(-1);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // the panels' order until a click
    m_table->setSortingEnabled(true);
    m_names = new NameColumn(m_table, 1);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    setVisible(false);
}

void RangeStatsTable::setStats(const QString &title, const std::vector<SeriesRangeStats> &stats) {
    setVisible(!stats.empty());
    m_title->setText(title);
    m_table->setSortingEnabled(false);  // rows stay where they are put while filling
    m_table->setRowCount(int(stats.size()));
    for (int r = 0; r < int(stats.size()); ++r) {
        const SeriesRangeStats &s = stats[size_t(r)];
        const bool any = s.stats.count > 0;
        const QString cells[] = {s.panel,
                                 s.label,
                                 s.period,
                                 QString::number(s.stats.count),
                                 any ? MetricUnits::format(s.stats.min, s.scale) : QStringLiteral("–"),
                                 any ? MetricUnits::format(s.stats.mean, s.scale) : QStringLiteral("–"),
                                 any ? MetricUnits::format(s.stats.max, s.scale) : QStringLiteral("–")};
        const double values[] = {double(s.stats.count), s.stats.min, s.stats.mean, s.stats.max};
        for (int c = 0; c < 7; ++c) {
            auto *item = new SortedItem(cells[c]);
            if (c >= kFirstNumberColumn) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if (c == kFirstNumberColumn || any) item->setData(kSortRole, values[c - kFirstNumberColumn]);
            }
            if (c < kFirstNumberColumn) item->setToolTip(cells[c]);
            m_table->setItem(r, c, item);
        }
    }
    m_table->setSortingEnabled(true);
    fitHeight();
}

QString RangeStatsTable::title() const { return m_title->text(); }

void RangeStatsTable::setMaximumRows(int rows) {
    if (rows == m_maxRows) return;
    m_maxRows = rows;
    if (isVisible()) fitHeight();
}

void RangeStatsTable::fitHeight() {
    // The rest scroll inside the table: the charts above keep their room.
    const int rows = std::clamp(m_table->rowCount(), 1, m_maxRows);
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + rows * m_table->verticalHeader()->defaultSectionSize() +
                            2 * m_table->frameWidth() + 2);
    // Tell the parent layout now (not a few event-loop passes later) that the height changed.
    layout()->invalidate();
    layout()->activate();
    updateGeometry();
}

} // namespace stepscope

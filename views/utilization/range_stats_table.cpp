#include "views/utilization/range_stats_table.h"

#include "views/utilization/utilization_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace stepscope {

RangeStatsTable::RangeStatsTable(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_table(new QTableWidget(0, 7, this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_table);
    m_table->setHorizontalHeaderLabels({tr("Chart"), tr("Series"), tr("Sampling"), tr("Samples"), tr("Min"), tr("Mean"), tr("Max")});
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    setVisible(false);
}

void RangeStatsTable::setStats(const QString &title, const std::vector<SeriesRangeStats> &stats) {
    setVisible(!stats.empty());
    m_title->setText(title);
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
        for (int c = 0; c < 7; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c >= 3) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, c, item);
        }
    }
    const int rows = std::min<int>(int(stats.size()), 6);
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + rows * m_table->verticalHeader()->defaultSectionSize() +
                            2 * m_table->frameWidth() + 2);
    // Tell the parent layout now (not a few event-loop passes later) that the height changed.
    layout()->invalidate();
    layout()->activate();
    updateGeometry();
}

} // namespace stepscope

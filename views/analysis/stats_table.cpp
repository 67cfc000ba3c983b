#include "views/analysis/stats_table.h"

#include "views/analysis/name_column.h"

#include <QHeaderView>
#include <QTableView>

namespace stepscope {

QVariant StatsTableProxy::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::InitialSortOrderRole)
        return int(m_isText(section) ? Qt::AscendingOrder : Qt::DescendingOrder);
    return QSortFilterProxyModel::headerData(section, orientation, role);
}

NameColumn *setUpStatsTable(QTableView *table, StatsTableProxy *proxy, QAbstractItemModel *model, int sortRole, int nameColumn) {
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    proxy->setFilterKeyColumn(nameColumn);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 4);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setMinimumSectionSize(40);
    return new NameColumn(table, nameColumn);
}

} // namespace stepscope

#pragma once
// The tables of numbers per name (op statistics, the compare view's op deltas) are set up one way:
// a sort/filter proxy whose first click on a number column sorts biggest first (on a text column,
// A to Z), filtering the name column case-insensitively, sorting by the model's sort role; whole
// rows selected one at a time, compact rows, columns sized to their contents and a NameColumn that
// gives the names their room.

#include <QSortFilterProxyModel>

#include <functional>

class QTableView;

namespace stepscope {

class NameColumn;

class StatsTableProxy : public QSortFilterProxyModel {
public:
    // isText(column): sorted A to Z on the first click; every other column biggest first.
    StatsTableProxy(std::function<bool(int column)> isText, QObject *parent) : QSortFilterProxyModel(parent), m_isText(std::move(isText)) {}
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::function<bool(int)> m_isText;
};

// Wires `proxy` over `model` into `table` as above; returns the table's NameColumn (owned by it).
NameColumn *setUpStatsTable(QTableView *table, StatsTableProxy *proxy, QAbstractItemModel *model, int sortRole, int nameColumn);

} // namespace stepscope

#pragma once
// OpDeltaTableModel shows the ops of a RunComparison as a table: name, side (host / GPU n), status
// (new, gone, changed, same), ms per step in the base and the new run, the change per step and the
// calls in each. SortRole gives numbers for the numeric columns (the first click sorts biggest
// first in the view). Read by CompareView through a sort/filter proxy.

#include "models/analysis/report/run_comparison.h"

#include <QAbstractTableModel>

namespace stepscope {

class OpDeltaTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Side, Status, BaseMs, NewMs, DeltaMs, BaseCount, NewCount, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setOps(std::vector<OpDelta> ops);
    const OpDelta *op(int row) const { return row >= 0 && size_t(row) < m_ops.size() ? &m_ops[size_t(row)] : nullptr; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<OpDelta> m_ops;
};

} // namespace stepscope

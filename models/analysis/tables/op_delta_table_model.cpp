#include "models/analysis/tables/op_delta_table_model.h"

#include <QBrush>
#include <QColor>

namespace stepscope {

void OpDeltaTableModel::setOps(std::vector<OpDelta> ops) {
    beginResetModel();
    m_ops = std::move(ops);
    endResetModel();
}

int OpDeltaTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_ops.size()); }

int OpDeltaTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpDeltaTableModel::data(const QModelIndex &index, int role) const {
    const OpDelta *o = index.isValid() ? op(index.row()) : nullptr;
    if (!o) return {};
    const int c = index.column();
    if (role == SortRole) {
        switch (c) {
        case BaseMs: return o->baseMsPerStep;
        case NewMs: return o->newMsPerStep;
        case DeltaMs: return o->deltaMs();
        case BaseCount: return qlonglong(o->baseCount);
        case NewCount: return qlonglong(o->newCount);
        default: role = Qt::DisplayRole; break;
        }
    }
    if (role == Qt::DisplayRole) {
        switch (c) {
        case Name: return QString::fromStdString(o->name);
        case Side: return o->host() ? tr("host") : tr("GPU %1").arg(o->device);
        case Status: return QString::fromLatin1(RunComparison::statusName(o->status));
        case BaseMs: return QString::number(o->baseMsPerStep, 'f', 3);
        case NewMs: return QString::number(o->newMsPerStep, 'f', 3);
        case DeltaMs: return (o->deltaMs() > 0 ? QStringLiteral("+") : QString()) + QString::number(o->deltaMs(), 'f', 3);
        case BaseCount: return qlonglong(o->baseCount);
        case NewCount: return qlonglong(o->newCount);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && c == Name) return QString::fromStdString(o->name);
    if (role == Qt::TextAlignmentRole && c >= BaseMs) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && c == DeltaMs && o->status != OpDelta::Status::Same)
        return QBrush(o->deltaMs() < 0 ? QColor(0x1b, 0x7a, 0x2e) : QColor(0xb0, 0x2a, 0x1e));  // faster green, slower red
    return {};
}

QVariant OpDeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Op");
    case Side: return tr("Side");
    case Status: return tr("Status");
    case BaseMs: return tr("Base ms/step");
    case NewMs: return tr("New ms/step");
    case DeltaMs: return tr("Δ ms/step");
    case BaseCount: return tr("Base calls");
    case NewCount: return tr("New calls");
    default: return {};
    }
}

} // namespace stepscope

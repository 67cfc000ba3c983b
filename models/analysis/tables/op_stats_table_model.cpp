#include "models/analysis/tables/op_stats_table_model.h"

#include <limits>

namespace stepscope {

namespace {
// "[128,1,1]" -> "128, 1, 1"; "varies" and "" unchanged.
QString kernelText(const std::string &v) {
    QString s = QString::fromStdString(v);
    if (s.startsWith(QLatin1Char('[')) && s.endsWith(QLatin1Char(']'))) s = s.mid(1, s.size() - 2).replace(QLatin1Char(','), QLatin1String(", "));
    return s;
}

// A number sorts as a number; "varies" and "" as text.
QVariant kernelNumber(const std::string &v) {
    bool ok = false;
    const qlonglong n = QString::fromStdString(v).toLongLong(&ok);
    return ok ? QVariant(n) : QVariant(QString::fromStdString(v));
}
} // namespace

void OpStatsTableModel::setOps(std::vector<OpStat> ops) {
    beginResetModel();
    m_all = std::move(ops);
    m_hostTotal = m_deviceTotal = 0;
    for (const OpStat &o : m_all) (o.host() ? m_hostTotal : m_deviceTotal) += o.selfNs;
    rebuild();
    endResetModel();
}

void OpStatsTableModel::setSideFilter(SideFilter f) {
    beginResetModel();
    m_filter = f;
    rebuild();
    endResetModel();
}

void OpStatsTableModel::rebuild() {
    m_rows.clear();
    for (const OpStat &o : m_all)
        if (m_filter == SideFilter::All || (m_filter == SideFilter::Host) == o.host()) m_rows.push_back(&o);
}

const OpStat *OpStatsTableModel::op(int row) const { return row >= 0 && row < int(m_rows.size()) ? m_rows[size_t(row)] : nullptr; }

int OpStatsTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int OpStatsTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OpStatsTableModel::data(const QModelIndex &index, int role) const {
    const OpStat *o = op(index.row());
    if (!o) return {};
    const double sideTotal = double(std::max<int64_t>(1, o->host() ? m_hostTotal : m_deviceTotal));
    auto ms = [](double ns) { return ns / 1e6; };
    QVariant sortValue;
    switch (index.column()) {
    case Name: sortValue = QString::fromStdString(o->name); break;
    case Side: sortValue = o->host() ? tr("host") : tr("device"); break;
    case Device: sortValue = o->host() ? QString() : QStringLiteral("GPU %1").arg(o->device); break;
    case Count: sortValue = qint64(o->count); break;
    case Total: sortValue = ms(double(o->totalNs)); break;
    case Self: sortValue = ms(double(o->selfNs)); break;
    case Mean: sortValue = ms(o->meanNs()); break;
    case Min: sortValue = ms(double(o->minNs)); break;
    case Max: sortValue = ms(double(o->maxNs)); break;
    case TotalPct: sortValue = 100.0 * double(o->totalNs) / sideTotal; break;
    case SelfPct: sortValue = 100.0 * double(o->selfNs) / sideTotal; break;
    case Tflops: if (o->efficiency && o->efficiency->flops > 0) sortValue = o->efficiency->achievedTflops(); break;
    case Gbps: if (o->efficiency && o->efficiency->bytes > 0) sortValue = o->efficiency->achievedGbps(); break;
    case PeakPct: if (o->efficiency && o->efficiency->pctOfPeak) sortValue = *o->efficiency->pctOfPeak; break;
    case Bound: if (o->efficiency) sortValue = QString::fromStdString(o->efficiency->bound); break;
    case Grid: sortValue = kernelText(o->kernel.grid); break;
    case Block: sortValue = kernelText(o->kernel.block); break;
    case Registers: sortValue = kernelNumber(o->kernel.registers); break;
    case SharedMemory: sortValue = kernelNumber(o->kernel.sharedMemory); break;
    }
    if (role == SortRole && (index.column() == Registers || index.column() == SharedMemory) &&
        sortValue.typeId() == QMetaType::QString)  // "varies" after every number, "" before
        return sortValue.toString().isEmpty() ? qlonglong(-1) : std::numeric_limits<qlonglong>::max();
    if (role == SortRole && index.column() >= Tflops && index.column() <= PeakPct && !sortValue.isValid()) return -1.0;  // unknown first
    if (role == SortRole) return sortValue;
    if (role == Qt::ToolTipRole && index.column() == Name) return QString::fromStdString(o->name);
    if (role == Qt::ToolTipRole && index.column() >= Tflops && index.column() <= Bound && o->efficiency) {
        const OpEfficiency &e = *o->efficiency;
        QString tip = tr("%1 %2\n%3 GFLOP, %4 MB in %5 ms (%6 FLOP/byte)")
                          .arg(QString::fromStdString(e.op), QString::fromStdString(e.shapes))
                          .arg(e.flops / 1e9, 0, 'f', 1).arg(e.bytes / 1e6, 0, 'f', 1).arg(double(e.timeNs) / 1e6, 0, 'f', 3)
                          .arg(e.intensity(), 0, 'f', 1);
        if (e.peakTflops) tip += tr("\npeak %1 TFLOPS (%2)").arg(*e.peakTflops, 0, 'f', 1).arg(QString::fromStdString(e.dtype));
        if (e.peakGbps) tip += tr(", %1 GB/s").arg(*e.peakGbps, 0, 'f', 0);
        if (!e.pctOfPeak) tip += tr("\nno peak is known for this device or dtype");
        return tip;
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Count && index.column() != Grid && index.column() != Block && index.column() != Bound
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    if (index.column() >= Total && index.column() <= Max) return QString::number(sortValue.toDouble(), 'f', 3);
    if (index.column() == TotalPct || index.column() == SelfPct) return QString::number(sortValue.toDouble(), 'f', 1);
    if (index.column() == Tflops || index.column() == PeakPct)
        return sortValue.isValid() ? QVariant(QString::number(sortValue.toDouble(), 'f', 1)) : QVariant();
    if (index.column() == Gbps) return sortValue.isValid() ? QVariant(QString::number(sortValue.toDouble(), 'f', 0)) : QVariant();
    return sortValue;
}

QVariant OpStatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char *names[] = {"Name", "Side", "Device", "Count", "Total (ms)", "Self (ms)", "Mean (ms)",
                                  "Min (ms)", "Max (ms)", "Total %", "Self %", "TFLOPS", "GB/s", "% of peak", "Bound", "Grid", "Block",
                                  "Registers", "Shared mem (B)"};
    return tr(names[section]);
}

} // namespace stepscope

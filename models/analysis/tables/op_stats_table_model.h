#pragma once
// OpStatsTableModel shows a run's op statistics (OpStatsAnalyzer) as a table: name, side, device,
// count, total, self, mean, min, max (ms), total/self as % of the side's total, the op's efficiency
// where its cost is known (achieved TFLOPS and GB/s, % of the device's roof, compute- or memory-bound;
// OpEfficiencyAnalyzer) and, for GPU kernels, the recorded grid, block, registers per thread and
// shared memory (bytes). The side filter
// shows host ops, device ops or both. Read by OpStatsView through a sort/filter proxy.

#include "models/analysis/engine/op_stats_analyzer.h"

#include <QAbstractTableModel>

namespace stepscope {

class OpStatsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Side, Device, Count, Total, Self, Mean, Min, Max, TotalPct, SelfPct, Tflops, Gbps, PeakPct, Bound,
                  Grid, Block, Registers, SharedMemory, ColumnCount };
    enum class SideFilter { All, Host, Device };
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    void setOps(std::vector<OpStat> ops);
    void setSideFilter(SideFilter f);
    const OpStat *op(int row) const;
    const std::vector<OpStat> &ops() const { return m_all; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void rebuild();
    std::vector<OpStat> m_all;
    std::vector<const OpStat *> m_rows;
    SideFilter m_filter = SideFilter::Device;
    int64_t m_hostTotal = 0, m_deviceTotal = 0;
};

} // namespace stepscope

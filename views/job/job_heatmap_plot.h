#pragma once
// JobHeatmapPlot: the Job dock's rank × step heatmap, of step time or of how late each rank arrives
// at the step's first all-reduce (after the earliest rank: the straggler's row is the dark one, where
// step times, equal on every rank of a synchronous job, cannot show it). Every real value is a colour of
// a light-yellow → dark-red scale (the slowest step is the darkest, never the background's white);
// a cell where a rank has no such step is grey and hatched, and its tooltip says so; the colour
// legend names its unit (ms). The step numbers under the cells are links (columnHeaderAt). JobView
// owns one and fills it with setCells(); it says which cell was clicked.

#include <QColor>
#include <QPoint>
#include <QString>

#include <qcustomplot.h>

#include <vector>

namespace stepscope {

class JobHeatmapPlot : public QCustomPlot {
    Q_OBJECT
public:
    static constexpr double kMinSpread = 0.25;  // the step-time scale spans at least 25 % of the slowest step
    // What the cells hold: step time, or arrival at the first all-reduce after the earliest rank
    // (the scale then starts at 0).
    enum class Measure { StepTime, Arrival };
    explicit JobHeatmapPlot(QWidget *parent = nullptr);

    // rowNames: one per rank (top to bottom); columnSteps: the step number of each column;
    // ms[row][column]: the measure in ms, NaN where that rank has no such step (or, for Arrival, no
    // all-reduce in it). Empty: no cells.
    void setCells(const std::vector<QString> &rowNames, const std::vector<int64_t> &columnSteps,
                  const std::vector<std::vector<double>> &ms, bool alignedByOrder, Measure measure = Measure::StepTime);
    Measure measure() const { return m_measure; }
    QCPColorMap *map() const { return m_map; }
    QCPColorScale *scale() const { return m_scale; }
    // The colour a value is drawn in, and the colour of a missing cell.
    QColor colorOf(double ms) const;
    static QColor missingColor() { return QColor(196, 198, 202); }
    // The heatmap column whose step-number label is under widget position `pos`, or -1.
    int columnHeaderAt(QPoint pos) const;
    // The cell under widget position `pos` as {row, column}, or {-1, -1}.
    std::pair<int, int> cellAt(QPoint pos) const;
    // What the tooltip says over that cell ("rank 3 · step 12: 281.4 ms", "rank 3 has no step 12").
    QString cellText(int row, int column) const;

    // Every `stride`-th label of `count` so that labels about `labelPx` wide (or tall) never touch
    // in `pixels`; shared with the breakdown bars.
    static int tickStride(int count, int pixels, int labelPx);

protected:
    bool event(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitTicks();  // as many step and rank labels as fit the plot's size
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    std::vector<QString> m_rowNames;
    std::vector<int64_t> m_columnSteps;
    std::vector<std::vector<double>> m_ms;
    Measure m_measure = Measure::StepTime;
    std::vector<QCPItemRect *> m_hatches;  // over the missing cells
};

} // namespace stepscope

#pragma once
// RooflinePlot: the op view's roofline chart (issue #33): log-log, arithmetic intensity (FLOP/byte)
// against achieved TFLOPS, one dot per GPU op whose FLOPs are known (area by its time, colour by
// compute- or memory-bound), under the device's roof for each dtype the ops ran in (the lower of the
// peak and intensity x bandwidth, the ridge point where they meet). Ops without FLOPs (elementwise,
// norms: bytes only) cannot be placed and are counted in the note. Hover a dot for the op, click it
// to select it. Filled by OpStatsView from the run's op statistics.

#include "models/analysis/engine/op_stats_analyzer.h"

#include <qcustomplot.h>

#include <vector>

namespace stepscope {

class RooflinePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit RooflinePlot(QWidget *parent = nullptr);
    void setOps(const std::vector<OpStat> &ops);
    int pointCount() const { return int(m_points.size()); }
    int roofCount() const { return m_roofs; }
    // What the chart says above it: how many ops it shows, and why others are missing.
    QString note() const { return m_note; }
    // The op drawn nearest to widget position `pos` within a few pixels; -1 when none.
    int pointAt(const QPointF &pos) const;
    QString pointText(int i) const;

signals:
    void opClicked(const QString &name, int device);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Point {
        double intensity, tflops, ms, pct;
        bool compute;
        QString name, op;
        int device;
    };
    std::vector<Point> m_points;
    int m_roofs = 0;
    QString m_note;
};

} // namespace stepscope

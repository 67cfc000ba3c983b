#pragma once
// ColumnEnvelopeGraph is a QCPGraph that draws a dense 1 px aliased line the fast way. Such a line
// (per-pixel min/max pairs from the LOD pyramid, or raw steps at about one sample per pixel)
// covers, in each pixel column, one vertical run of pixels: from the lowest to the highest point
// the polyline reaches inside that column. The graph computes those runs from the line's pixel
// points, writes them straight into a transparent image of its axis rect and draws that image
// once: a cost bounded by the rect's size, where stroking thousands of mostly vertical segments
// (or filling them as a polygon) costs tens to hundreds of ms per frame for a busy series. Same
// pixels, same colour; gaps (NaN) still break the line. An aliased 2 px pen (a highlighted rank)
// draws the same runs thickened by a pixel each way (a 2 px line, at the same cost; not the pixels
// of Qt's wide stroke, which is a filled outline). Antialiased, translucent or wider pens, vector
// output (SVG/PDF export) and transformed painters draw as QCPGraph does. Used by UtilizationView
// for every series.

#include <qcustomplot.h>

#include <vector>

namespace stepscope {

class ColumnEnvelopeGraph : public QCPGraph {
    Q_OBJECT
public:
    ColumnEnvelopeGraph(QCPAxis *keyAxis, QCPAxis *valueAxis);

    // The rows [top, bottom] the line reaches in each pixel column of `area` at `scale` device
    // pixels per pixel, counted from the area's top-left corner; top > bottom where the line does
    // not pass. `line` holds pixel points in key order, NaN breaking the line (as
    // QCPGraph::getLines returns them). Public for the tests.
    struct ColumnRun {
        int top, bottom;
    };
    static std::vector<ColumnRun> columnRuns(const QVector<QPointF> &line, const QRect &area, qreal scale = 1);
    // `runs` thickened by `extra` device pixels: each column also covers the `extra` columns before
    // it, and `extra` rows more below. Public for the tests.
    static std::vector<ColumnRun> thicken(const std::vector<ColumnRun> &runs, int extra);

protected:
    void drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const override;

private:
    bool drawsAsColumns(const QCPPainter *painter) const;
    mutable QImage m_canvas;  // reused while the rect keeps its size
};

} // namespace stepscope

#include "views/utilization/column_envelope_graph.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace stepscope {

namespace {

bool isPoint(const QPointF &p) { return !std::isnan(p.x()) && !std::isnan(p.y()); }

// floor / ceil / qRound for |x| < 2^62, inline (the library calls cost more than the rest of a
// segment on plain x86-64).
double floorOf(double x) {
    const double t = double(int64_t(x));
    return t > x ? t - 1 : t;
}
double ceilOf(double x) { return -floorOf(-x); }
double roundOf(double x) { return x >= 0 ? floorOf(x + 0.5) : -floorOf(-x + 0.5); }

// Pixel coordinates far outside any plot, kept small enough for the helpers above.
constexpr double kFarPx = 1e9;

} // namespace

ColumnEnvelopeGraph::ColumnEnvelopeGraph(QCPAxis *keyAxis, QCPAxis *valueAxis) : QCPGraph(keyAxis, valueAxis) {}

std::vector<ColumnEnvelopeGraph::ColumnRun> ColumnEnvelopeGraph::columnRuns(const QVector<QPointF> &line, const QRect &area,
                                                                            qreal scale) {
    const int columns = int(std::ceil(area.width() * scale)), rows = int(std::ceil(area.height() * scale));
    std::vector<ColumnRun> runs(size_t(std::max(columns, 0)), ColumnRun{INT_MAX, INT_MIN});
    if (columns <= 0 || rows <= 0) return runs;
    const auto mark = [&](int c, int top, int bottom) {
        ColumnRun &r = runs[size_t(c)];
        r.top = std::min(r.top, std::clamp(top, -1, rows));
        r.bottom = std::max(r.bottom, std::clamp(bottom, -1, rows));
    };
    // The pixels of one segment as QCPPainter and Qt's cosmetic stroker draw an aliased 1 px line:
    // endpoints rounded to whole pixels (in device pixels, from the area's corner), then one pixel
    // per step along the major axis at the floor of the position along the minor one, both
    // endpoints included.
    const auto segment = [&](QPointF a, QPointF b) {
        const auto px = [](double v) { return roundOf(std::clamp(v, -kFarPx, kFarPx)); };
        double x0 = (px(a.x()) - area.left()) * scale, y0 = (px(a.y()) - area.top()) * scale;
        double x1 = (px(b.x()) - area.left()) * scale, y1 = (px(b.y()) - area.top()) * scale;
        if (x0 > x1) {
            std::swap(x0, x1);
            std::swap(y0, y1);
        }
        if (x1 < 0 || x0 >= columns) return;
        const double dx = x1 - x0, dy = y1 - y0;
        const int first = int(std::max(0.0, floorOf(x0))), last = int(std::min(double(columns - 1), floorOf(x1)));
        const auto clampRow = [&](double y) { return int(floorOf(std::clamp(y, -1.0, double(rows)))); };
        const double slope = dx > 0 ? dy / dx : 0;
        if (std::abs(dx) >= std::abs(dy)) {  // shallow (or a single point): one row per column
            for (int c = first; c <= last; ++c) {
                const double y = y0 + (std::clamp(double(c), x0, x1) - x0) * slope;
                mark(c, clampRow(y + 1e-9), clampRow(y + 1e-9));
            }
            return;
        }
        // Steep: column c takes the rows whose position along the line floors to c.
        const double rowLo = std::clamp(ceilOf(std::min(y0, y1) - 1e-9), -2.0, rows + 1.0);
        const double rowHi = std::clamp(floorOf(std::max(y0, y1) + 1e-9), -2.0, rows + 1.0);
        const auto rowAt = [&](double x) { return y0 + (x - x0) * slope; };
        for (int c = first; c <= last; ++c) {
            double lo = rowLo, hi = rowHi;
            if (dx > 0 && dy > 0) {
                lo = std::max(lo, ceilOf(rowAt(c) - 1e-9));
                hi = std::min(hi, ceilOf(rowAt(c + 1) - 1e-9) - 1);
            } else if (dx > 0) {
                lo = std::max(lo, floorOf(rowAt(c + 1) + 1e-9) + 1);
                hi = std::min(hi, floorOf(rowAt(c) + 1e-9));
            }
            if (lo <= hi) mark(c, clampRow(lo), clampRow(hi));
        }
    };
    // Like QCPGraph's polyline: consecutive points are joined, a NaN breaks the line, a point
    // alone between breaks draws nothing.
    for (qsizetype i = 1; i < line.size(); ++i)
        if (isPoint(line[i - 1]) && isPoint(line[i])) segment(line[i - 1], line[i]);
    return runs;
}

std::vector<ColumnEnvelopeGraph::ColumnRun> ColumnEnvelopeGraph::thicken(const std::vector<ColumnRun> &runs, int extra) {
    std::vector<ColumnRun> out(runs.size(), ColumnRun{INT_MAX, INT_MIN});
    for (size_t c = 0; c < runs.size(); ++c)
        for (size_t k = c; k < std::min(runs.size(), c + size_t(std::max(extra, 0)) + 1); ++k)
            if (runs[c].top <= runs[c].bottom) {
                out[k].top = std::min(out[k].top, runs[c].top);
                out[k].bottom = std::max(out[k].bottom, runs[c].bottom + extra);
            }
    return out;
}

bool ColumnEnvelopeGraph::drawsAsColumns(const QCPPainter *painter) const {
    const QPen &pen = painter->pen();
    return !painter->antialiasing() && pen.style() == Qt::SolidLine && pen.widthF() <= 2.0 && pen.color().alpha() == 255 &&
           pen.brush().style() == Qt::SolidPattern && !painter->modes().testFlag(QCPPainter::pmVectorized) &&
           !painter->modes().testFlag(QCPPainter::pmNoCaching) && painter->transform().isIdentity() && painter->device() &&
           mKeyAxis && mKeyAxis->orientation() == Qt::Horizontal;
}

void ColumnEnvelopeGraph::drawLinePlot(QCPPainter *painter, const QVector<QPointF> &lines) const {
    if (painter->pen().style() == Qt::NoPen || painter->pen().color().alpha() == 0) return;
    applyDefaultAntialiasingHint(painter);
    if (!drawsAsColumns(painter)) {
        drawPolyline(painter, lines);  // what QCPGraph::drawLinePlot does
        return;
    }
    // The canvas has the device's resolution (HiDPI: several device pixels per pixel).
    const QRect area = clipRect();
    const qreal scale = painter->device()->devicePixelRatioF();
    // A 2 px pen: the 1 px runs thickened by a pixel (device pixels: scale of them).
    const int extra = painter->pen().widthF() > 1.0 ? int(std::lround(scale)) : 0;
    const std::vector<ColumnRun> runs = extra ? thicken(columnRuns(lines, area, scale), extra) : columnRuns(lines, area, scale);
    const QSize size(int(runs.size()), int(std::ceil(area.height() * scale)));
    if (size.isEmpty()) return;
    if (m_canvas.size() != size) m_canvas = QImage(size, QImage::Format_ARGB32_Premultiplied);
    int firstRow = size.height(), lastRow = -1;
    for (const ColumnRun &run : runs)
        if (run.top <= run.bottom) {
            firstRow = std::min(firstRow, std::max(run.top, 0));
            lastRow = std::max(lastRow, std::min(run.bottom, size.height() - 1));
        }
    if (lastRow < firstRow) return;
    // Only the rows the line reaches are written (every pixel of them: line colour or transparent,
    // so nothing from an earlier frame shows) and drawn; row by row, so the writes stream, with
    // tops and bottoms in separate arrays, so the compiler does several columns per instruction.
    std::vector<int> tops(runs.size()), bottoms(runs.size());
    for (size_t c = 0; c < runs.size(); ++c) {
        tops[c] = runs[c].top;
        bottoms[c] = runs[c].bottom;
    }
    const QRgb color = qPremultiply(painter->pen().color().rgba());
    const int width = size.width();
    for (int r = firstRow; r <= lastRow; ++r) {
        QRgb *pixel = reinterpret_cast<QRgb *>(m_canvas.scanLine(r));
        for (int c = 0; c < width; ++c) pixel[c] = (int(tops[size_t(c)] <= r) & int(r <= bottoms[size_t(c)])) ? color : 0;  // branchless
    }
    const QRectF source(0, firstRow, size.width(), lastRow - firstRow + 1);
    painter->drawImage(QRectF(area.left(), area.top() + firstRow / scale, size.width() / scale, source.height() / scale), m_canvas,
                       source);
}

} // namespace stepscope

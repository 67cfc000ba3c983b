#include "views/job/job_heatmap_plot.h"

#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace stepscope {

namespace {
// Light yellow → orange → dark red (ColorBrewer YlOrRd without its near-white end): the fastest
// step is still plainly a colour on the white plot, the slowest the darkest.
QCPColorGradient stepTimeGradient() {
    QCPColorGradient g;
    g.setColorStopAt(0.0, QColor(255, 230, 140));
    g.setColorStopAt(0.35, QColor(253, 170, 70));
    g.setColorStopAt(0.7, QColor(230, 70, 40));
    g.setColorStopAt(1.0, QColor(128, 0, 38));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(JobHeatmapPlot::missingColor());
    return g;
}
constexpr int kMaxHatchedCells = 4000;  // beyond that the grey alone says it
} // namespace

JobHeatmapPlot::JobHeatmapPlot(QWidget *parent)
    : QCustomPlot(parent), m_map(new QCPColorMap(xAxis, yAxis)), m_scale(new QCPColorScale(this)) {
    setObjectName(QStringLiteral("jobHeatmap"));
    xAxis->setLabel(tr("step"));
    m_map->setInterpolate(false);
    m_map->setName(tr("step time (ms)"));
    plotLayout()->addElement(0, 1, m_scale);
    m_scale->setLabel(tr("step time (ms)"));
    m_scale->setBarWidth(10);
    m_map->setColorScale(m_scale);
    m_map->setGradient(stepTimeGradient());
    auto *margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
}

QColor JobHeatmapPlot::colorOf(double ms) const {
    if (std::isnan(ms)) return missingColor();
    QRgb rgb = 0;
    const QCPRange range = m_map->dataRange();
    m_map->gradient().colorize(&ms, range, &rgb, 1);
    return QColor::fromRgb(rgb);
}

void JobHeatmapPlot::setCells(const std::vector<QString> &rowNames, const std::vector<int64_t> &columnSteps,
                              const std::vector<std::vector<double>> &ms, bool alignedByOrder, Measure measure) {
    m_measure = measure;
    const QString label = measure == Measure::Arrival ? tr("late at the first all-reduce (ms)") : tr("step time (ms)");
    m_map->setName(label);
    m_scale->setLabel(label);
    m_rowNames = rowNames;
    m_columnSteps = columnSteps;
    m_ms = ms;
    for (QCPItemRect *hatch : m_hatches) removeItem(hatch);
    m_hatches.clear();
    QCPColorMapData *cells = m_map->data();
    const int steps = int(columnSteps.size()), ranks = int(rowNames.size());
    if (steps == 0 || ranks == 0) {
        cells->setSize(0, 0);
        replot();
        return;
    }
    cells->setSize(steps, ranks);
    cells->setRange(QCPRange(0, steps - 1), QCPRange(0, ranks - 1));
    double low = INFINITY, high = -INFINITY;
    for (int r = 0; r < ranks; ++r)
        for (int k = 0; k < steps; ++k) {
            const double v = ms[size_t(r)][size_t(k)];
            cells->setCell(k, r, v);
            if (std::isnan(v)) {
                if (int(m_hatches.size()) >= kMaxHatchedCells) continue;
                auto *hatch = new QCPItemRect(this);
                hatch->topLeft->setCoords(k - 0.5, r - 0.5);
                hatch->bottomRight->setCoords(k + 0.5, r + 0.5);
                hatch->setPen(Qt::NoPen);
                hatch->setBrush(QBrush(QColor(120, 122, 128), Qt::BDiagPattern));
                hatch->setSelectable(false);
                m_hatches.push_back(hatch);
                continue;
            }
            low = std::min(low, v);
            high = std::max(high, v);
        }
    // NaN cells take no part in the scale; equal values still get a (one-colour) range. The scale
    // spans at least kMinSpread of the slowest step, so that steps a few percent apart are not drawn
    // as light yellow against dark red: a dark cell is a step that is really slower.
    if (!std::isfinite(low)) low = high = 0;
    if (measure == Measure::Arrival) {  // 0 is on time: the scale starts there, and a few µs stay light
        low = 0;
        high = std::max(high, 1.0);
    }
    high = std::max(high, low + kMinSpread * std::max(0.0, high));
    if (high - low < 1e-6) { low -= 0.5; high += 0.5; }
    m_map->setDataRange(QCPRange(low, high));
    xAxis->setLabel(alignedByOrder ? tr("step (aligned by order)") : tr("step"));
    fitTicks();
    xAxis->setRange(-0.5, steps - 0.5);
    yAxis->setRange(-0.5, ranks - 0.5);
    yAxis->setRangeReversed(true);
    replot();
}

int JobHeatmapPlot::tickStride(int count, int pixels, int labelPx) {
    if (count <= 0) return 1;
    const int fit = std::max(1, pixels / std::max(1, labelPx));
    return std::max(1, (count + fit - 1) / fit);
}

void JobHeatmapPlot::fitTicks() {
    const int steps = int(m_columnSteps.size()), ranks = int(m_rowNames.size());
    if (steps == 0 || ranks == 0) return;
    // The cells' rect as laid out last, or an estimate before the first layout.
    // The cells' size from the widget's (rank names left, colour scale right, step numbers and
    // label below): known before the layout runs.
    const QRect cells = rect().adjusted(70, 10, -90, -45);
    const QFontMetrics fm(xAxis->tickLabelFont());
    const int widest = fm.horizontalAdvance(QString::number(m_columnSteps.back())) + 10;
    QSharedPointer<QCPAxisTickerText> stepTicks(new QCPAxisTickerText);
    const int every = tickStride(steps, cells.width(), widest);
    for (int k = 0; k < steps; k += every) stepTicks->addTick(k, QString::number(m_columnSteps[size_t(k)]));
    xAxis->setTicker(stepTicks);
    QSharedPointer<QCPAxisTickerText> rankTicks(new QCPAxisTickerText);
    const int everyRank = tickStride(ranks, cells.height(), fm.height());
    for (int r = 0; r < ranks; r += everyRank) rankTicks->addTick(r, m_rowNames[size_t(r)]);
    yAxis->setTicker(rankTicks);
}

void JobHeatmapPlot::resizeEvent(QResizeEvent *event) {
    fitTicks();  // for the new size, before QCustomPlot replots
    QCustomPlot::resizeEvent(event);
}

int JobHeatmapPlot::columnHeaderAt(QPoint pos) const {
    if (m_columnSteps.empty() || isHidden()) return -1;
    const QRect plot = axisRect()->rect();
    // The step numbers sit in the band below the cells, above the axis label.
    if (pos.x() < plot.left() || pos.x() > plot.right() || pos.y() <= plot.bottom() || pos.y() > plot.bottom() + 28) return -1;
    const int column = int(std::lround(xAxis->pixelToCoord(pos.x())));
    return column >= 0 && size_t(column) < m_columnSteps.size() ? column : -1;
}

std::pair<int, int> JobHeatmapPlot::cellAt(QPoint pos) const {
    if (!axisRect()->rect().contains(pos)) return {-1, -1};
    const int row = int(std::lround(yAxis->pixelToCoord(pos.y())));
    const int column = int(std::lround(xAxis->pixelToCoord(pos.x())));
    if (row < 0 || column < 0 || size_t(row) >= m_rowNames.size() || size_t(column) >= m_columnSteps.size()) return {-1, -1};
    return {row, column};
}

QString JobHeatmapPlot::cellText(int row, int column) const {
    if (row < 0 || column < 0 || size_t(row) >= m_rowNames.size() || size_t(column) >= m_columnSteps.size()) return {};
    const double v = m_ms[size_t(row)][size_t(column)];
    const qint64 step = m_columnSteps[size_t(column)];
    const QString &rank = m_rowNames[size_t(row)];
    if (m_measure == Measure::Arrival) {
        if (std::isnan(v)) return tr("%1: no all-reduce of step %2 to compare").arg(rank).arg(step);
        return tr("%1 · step %2: reaches the first all-reduce %3 ms after the earliest rank\nclick: its timeline at this step")
            .arg(rank).arg(step).arg(v, 0, 'f', 1);
    }
    if (std::isnan(v)) return tr("%1 has no step %2").arg(rank).arg(step);
    return tr("%1 · step %2: %3 ms\nclick: its timeline at this step").arg(rank).arg(step).arg(v, 0, 'f', 1);
}

bool JobHeatmapPlot::event(QEvent *e) {
    if (e->type() != QEvent::ToolTip) return QCustomPlot::event(e);
    auto *help = static_cast<QHelpEvent *>(e);
    QString text;
    if (const int column = columnHeaderAt(help->pos()); column >= 0)
        text = tr("Click: the ranks aligned at step %1 in the timeline").arg(m_columnSteps[size_t(column)]);
    else if (const auto [row, col] = cellAt(help->pos()); row >= 0)
        text = cellText(row, col);
    else
        text = toolTip();
    if (text.isEmpty()) QToolTip::hideText(); else QToolTip::showText(help->globalPos(), text, this);
    return true;
}

} // namespace stepscope

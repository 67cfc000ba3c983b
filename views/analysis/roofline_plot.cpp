#include "views/analysis/roofline_plot.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace stepscope {

namespace {
constexpr int kMaxPoints = 300;  // the ops with most time; the table lists all
constexpr double kSizes[] = {6, 9, 13, 18, 25};  // dot diameters (px), by share of the shown time
const QColor kCompute(0x1f, 0x77, 0xb4), kMemory(0xff, 0x7f, 0x0e);
} // namespace

RooflinePlot::RooflinePlot(QWidget *parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("rooflinePlot"));
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setNumberPrecision(0);
    }
    xAxis->setLabel(tr("Arithmetic intensity (FLOP/byte)"));
    yAxis->setLabel(tr("Achieved TFLOPS"));
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 8));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    setMouseTracking(true);
    setMinimumHeight(180);
}

void RooflinePlot::setOps(const std::vector<OpStat> &ops) {
    clearGraphs();
    clearItems();
    m_points.clear();
    m_roofs = 0;
    int withoutFlops = 0, placed = 0;
    std::map<std::string, std::pair<double, double>> roofs;  // dtype -> (peak TFLOPS, GB/s)
    std::vector<const OpStat *> gpu;
    for (const OpStat &o : ops)
        if (!o.host() && o.efficiency) gpu.push_back(&o);
    std::sort(gpu.begin(), gpu.end(), [](const OpStat *a, const OpStat *b) { return a->totalNs > b->totalNs; });
    double shownMs = 0;
    for (const OpStat *o : gpu) {
        const OpEfficiency &e = *o->efficiency;
        if (e.flops <= 0 || e.bytes <= 0 || e.timeNs <= 0) {
            ++withoutFlops;
            continue;
        }
        if (int(m_points.size()) >= kMaxPoints) continue;
        m_points.push_back({e.intensity(), e.achievedTflops(), double(e.timeNs) / 1e6, e.pctOfPeak.value_or(-1),
                            e.bound != "memory", QString::fromStdString(o->name), QString::fromStdString(e.op), o->device});
        shownMs += double(e.timeNs) / 1e6;
        if (e.peakTflops && e.peakGbps) roofs.emplace(e.dtype, std::make_pair(*e.peakTflops, *e.peakGbps));
        ++placed;
    }
    double xMin = 1, xMax = 1000, yMin = 0.1, yMax = 1000;
    if (!m_points.empty()) {
        xMin = xMax = m_points.front().intensity;
        yMin = yMax = m_points.front().tflops;
        for (const Point &p : m_points) {
            xMin = std::min(xMin, p.intensity), xMax = std::max(xMax, p.intensity);
            yMin = std::min(yMin, p.tflops), yMax = std::max(yMax, p.tflops);
        }
    }
    for (const auto &[dtype, r] : roofs) {
        const double ridge = r.first * 1000 / r.second;
        xMin = std::min(xMin, ridge), xMax = std::max(xMax, ridge);
        yMax = std::max(yMax, r.first);
    }
    xMin = std::max(1e-3, xMin / 4), xMax *= 4, yMin = std::max(1e-4, yMin / 4), yMax *= 2;
    // The roofs: memory slope up to the ridge point, the dtype's peak after it.
    for (const auto &[dtype, r] : roofs) {
        const double ridge = r.first * 1000 / r.second;
        QCPGraph *g = addGraph();
        g->setName(tr("%1 roof: %2 TFLOPS, %3 GB/s").arg(QString::fromStdString(dtype)).arg(r.first, 0, 'f', 0).arg(r.second, 0, 'f', 0));
        g->setData({xMin, ridge, xMax}, {xMin * r.second / 1000, r.first, r.first}, true);
        g->setPen(QPen(QColor(90, 90, 90), 1.5, m_roofs == 0 ? Qt::SolidLine : Qt::DashLine));
        ++m_roofs;
    }
    // Dots in size buckets by their share of the time shown (a graph per size and colour; one legend
    // entry per colour).
    for (int bound = 0; bound < 2; ++bound) {
        bool named = false;
        for (size_t s = 0; s < std::size(kSizes); ++s) {
            QVector<double> x, y;
            for (const Point &p : m_points) {
                const double share = shownMs > 0 ? p.ms / shownMs : 0;
                const size_t bucket = std::min(std::size(kSizes) - 1, size_t(std::sqrt(share) * 10));
                if (bucket == s && p.compute == (bound == 0)) x.push_back(p.intensity), y.push_back(p.tflops);
            }
            if (x.isEmpty()) continue;
            QCPGraph *g = addGraph();
            const QColor c = bound == 0 ? kCompute : kMemory;
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(c.red(), c.green(), c.blue(), 170), kSizes[s]));
            g->setData(x, y);
            g->setName(bound == 0 ? tr("compute-bound ops") : tr("memory-bound ops"));
            if (named) g->removeFromLegend();
            named = true;
        }
    }
    xAxis->setRange(xMin, xMax);
    yAxis->setRange(yMin, yMax);
    if (gpu.empty())
        m_note = tr("No GPU op with a known cost: record with record_shapes=True (PyTorch) on a GPU in resources/rules/gpu_peaks.tsv.");
    else
        m_note = tr("%n GPU op(s) on the roofline (dot area: time)", nullptr, placed) +
                 (withoutFlops ? tr("; %n memory-bound op(s) without FLOPs (elementwise, norms) are in the table only", nullptr, withoutFlops) : QString()) +
                 (roofs.empty() ? tr("; no peak is known for this device") : QString());
    replot();
}

int RooflinePlot::pointAt(const QPointF &pos) const {
    int best = -1;
    double bestD = 12 * 12;
    for (size_t i = 0; i < m_points.size(); ++i) {
        const double dx = xAxis->coordToPixel(m_points[i].intensity) - pos.x(), dy = yAxis->coordToPixel(m_points[i].tflops) - pos.y();
        if (dx * dx + dy * dy <= bestD) bestD = dx * dx + dy * dy, best = int(i);
    }
    return best;
}

QString RooflinePlot::pointText(int i) const {
    if (i < 0 || i >= int(m_points.size())) return {};
    const Point &p = m_points[size_t(i)];
    QString text = p.name + QLatin1Char('\n') + (p.op.isEmpty() ? QString() : p.op + QLatin1String(": ")) +
                   tr("%1 TFLOPS at %2 FLOP/byte, %3 ms").arg(p.tflops, 0, 'f', 1).arg(p.intensity, 0, 'f', 1).arg(p.ms, 0, 'f', 2);
    if (p.pct >= 0) text += tr(", %1% of the roof").arg(p.pct, 0, 'f', 0);
    return text;
}

void RooflinePlot::mouseMoveEvent(QMouseEvent *event) {
    const int i = pointAt(event->position());
    if (i >= 0) QToolTip::showText(event->globalPosition().toPoint(), pointText(i), this);
    else QToolTip::hideText();
    QCustomPlot::mouseMoveEvent(event);
}

void RooflinePlot::mousePressEvent(QMouseEvent *event) {
    if (const int i = pointAt(event->position()); i >= 0) emit opClicked(m_points[size_t(i)].name, m_points[size_t(i)].device);
    QCustomPlot::mousePressEvent(event);
}

} // namespace stepscope

#include "views/utilization/utilization_view.h"

#include "models/text/time_format.h"
#include "views/annotations/annotation_plot_layer.h"

#include "views/utilization/column_envelope_graph.h"
#include "views/utilization/range_stats_table.h"
#include "views/utilization/series_plot_data.h"
#include "views/utilization/time_axis_ticker.h"
#include "views/utilization/utilization_view_panel.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace stepscope {

namespace {
constexpr int64_t kEpochThresholdNs = 100'000'000'000'000'000;  // after 1973: an absolute time

// A sample's dot (a 5 px disc with the line's 1.6 px pen), drawn once into a pixmap: painting a
// pixmap per sample is a copy, where an antialiased ellipse per sample costs milliseconds a frame.
QCPScatterStyle sampleDot(const QColor &color) {
    QPixmap dot(9, 9);
    dot.fill(Qt::transparent);
    QPainter p(&dot);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color, 1.6));
    p.setBrush(color);
    p.drawEllipse(QPointF(4.5, 4.5), 2.5, 2.5);
    p.end();
    return QCPScatterStyle(dot);
}

QString wallClock(int64_t ns, bool withMs) {
    const QDateTime dt = QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, Qt::UTC);
    return dt.toString(withMs ? QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz") : QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
           QStringLiteral(" UTC");
}
} // namespace

UtilizationView::UtilizationView(MetricSeriesModel *metrics, TimeRangeController *time, QWidget *parent)
    : QWidget(parent), m_metrics(metrics), m_time(time), m_plot(new QCustomPlot(this)), m_header(new QLabel(this)),
      m_memberCaption(new QLabel(this)), m_memberBox(new QComboBox(this)), m_empty(new QLabel(this)),
      m_stats(new RangeStatsTable(this)), m_scroll(new QScrollArea(this)) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    // The header: what is shown (or the values under the pointer), and the rank to draw in colour
    // when panels are grouped.
    auto *headerRow = new QHBoxLayout;
    headerRow->setContentsMargins(0, 0, 0, 0);
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_memberCaption);
    headerRow->addWidget(m_memberBox);
    layout->addLayout(headerRow);
    m_memberBox->setObjectName(QStringLiteral("utilizationMember"));
    m_memberBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_memberBox->setToolTip(tr("Charts of many ranks draw each rank thin and grey under their mean; the one picked here "
                               "(or the one under the pointer) is drawn in colour and named in the legend."));
    m_memberCaption->setBuddy(m_memberBox);
    connect(m_memberBox, &QComboBox::activated, this, [this](int i) { chooseMember(m_memberBox->itemData(i).toString()); });
    // The charts scroll rather than squash: each keeps a readable height however small the dock
    // and however tall the selection's statistics below them.
    m_scroll->setWidget(m_plot);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(m_scroll, 1);
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_stats);
    m_header->setTextFormat(Qt::PlainText);
    m_header->setObjectName(QStringLiteral("utilizationHeader"));
    m_header->setWordWrap(true);  // a narrow dock: two lines, never a dock as wide as the sentence
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setText(emptyText());
    m_plot->setMinimumHeight(200);
    m_plot->setMouseTracking(true);
    // Antialiasing is chosen per graph in updatePoints() (sparse steps: on; dense lines: off); listing
    // aePlottables here would force it on for all.
    m_plot->setAntialiasedElements(QCP::aeNone);
    // Lines as separate segments: a polyline of thousands of points is stroked as one path, which
    // alone costs tens of ms per graph.
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    // QCustomPlot's own buffered "overlay" layer holds crosshair, selection and legends, so hovering
    // repaints only that layer.
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);
    // A grouped panel's highlighted rank is drawn above the grey ranks and their mean.
    m_plot->addLayer(QStringLiteral("highlight"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->installEventFilter(this);

    connect(m_metrics, &MetricSeriesModel::seriesChanged, this, &UtilizationView::rebuild);
    connect(m_time, &TimeRangeController::rangeChanged, this, &UtilizationView::applyRange);
    connect(m_time, &TimeRangeController::selectionChanged, this, &UtilizationView::applySelection);
    connect(m_time, &TimeRangeController::fullRangeChanged, this, [this] {
        updateOrigin();
        for (auto &layer : m_noteLayers) layer->refresh();  // keys are seconds since the origin
        refresh();
    });
    connect(m_plot, &QCustomPlot::mousePress, this, &UtilizationView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &UtilizationView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &UtilizationView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &UtilizationView::onWheel);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &UtilizationView::onMouseDoubleClick);
    rebuild();
}

UtilizationView::~UtilizationView() = default;

UnitScale UtilizationView::panelScale(size_t p) const { return m_rects.at(p).scale; }

void UtilizationView::updateOrigin() {
    const NsRange full = m_time->fullRange();
    m_origin = full.valid() ? full.start : m_metrics->extent().start;
    if (m_rects.empty()) return;
    QCPAxis *x = m_rects.back().rect->axis(QCPAxis::atBottom);
    x->setLabel(m_origin > kEpochThresholdNs ? tr("time since %1").arg(wallClock(m_origin, false)) : tr("time since start"));
}

void UtilizationView::setAnnotations(AnnotationModel *notes) {
    m_notes = notes;
    if (m_notes)
        connect(m_notes, &AnnotationModel::changed, this, [this] {
            for (auto &layer : m_noteLayers) layer->refresh();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        });
    rebuildNoteLayers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int UtilizationView::annotationItemCount() const {
    int n = 0;
    for (const auto &layer : m_noteLayers) n += layer->itemCount();
    return n;
}

void UtilizationView::rebuildNoteLayers() {
    m_noteLayers.clear();  // their items belong to the plot, which clears them with the panels
    if (!m_notes) return;
    for (Panel &ui : m_rects) {
        auto layer = std::make_unique<AnnotationPlotLayer>(m_plot, m_notes, AnnotationPlotLayer::timeKeys([this] { return m_origin; }));
        layer->setAxisRect(ui.rect);
        layer->refresh();
        m_noteLayers.push_back(std::move(layer));
    }
}

AnnotationPlotLayer *UtilizationView::noteLayerFor(QCPAxisRect *rect) const {
    for (size_t p = 0; p < m_rects.size() && p < m_noteLayers.size(); ++p)
        if (m_rects[p].rect == rect) return m_noteLayers[p].get();
    return nullptr;
}

QString UtilizationView::emptyText() {
    return tr("No instance metrics in this session.\nImport an nvidia-smi CSV, nvidia-smi dmon, dcgmi dmon, "
              "SageMaker system metrics, CloudWatch CSV or sadf output to see GPU, CPU, memory, "
              "network and disk over time.");
}

void UtilizationView::rebuild() {
    m_noteLayers.clear();
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->plotLayout()->clear();
    m_rects.clear();
    m_panels = UtilizationPanels::group(*m_metrics);
    m_severalRuns = UtilizationPanels::severalRuns(*m_metrics);
    m_members = UtilizationPanels::members(m_panels, *m_metrics);
    m_memberOf.assign(size_t(m_metrics->count()), QString());
    m_hovered.clear();
    m_scroll->setVisible(!m_panels.empty());
    m_empty->setVisible(m_panels.empty());
    m_empty->setText(m_metrics->loading() ? tr("Loading the instance metrics…") : emptyText());

    auto *margins = new QCPMarginGroup(m_plot);
    auto ticker = QSharedPointer<TimeAxisTicker>::create();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    QFont bold = small;
    bold.setBold(true);
    for (int p = 0; p < int(m_panels.size()); ++p) {
        const UtilizationPanel &panel = m_panels[size_t(p)];
        Panel ui;
        ui.rect = new QCPAxisRect(m_plot);
        m_plot->plotLayout()->addElement(p, 0, ui.rect);
        ui.rect->setMinimumSize(0, kMinChartHeight);
        ui.rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        ui.rect->setupFullAxesBox(false);
        ui.rect->axis(QCPAxis::atTop)->setVisible(false);
        ui.rect->axis(QCPAxis::atRight)->setVisible(false);
        QCPAxis *x = ui.rect->axis(QCPAxis::atBottom), *y = ui.rect->axis(QCPAxis::atLeft);
        x->setTicker(ticker);
        x->setTickLabels(p + 1 == int(m_panels.size()));
        x->setTickLabelFont(small);
        y->setTickLabelFont(small);
        x->grid()->setPen(QPen(QColor(0xe4, 0xe4, 0xe4), 0));
        y->grid()->setPen(QPen(QColor(0xe4, 0xe4, 0xe4), 0));
        y->ticker()->setTickCount(3);
        for (QCPAxis *a : {x, y}) a->setBasePen(QPen(QColor(0x99, 0x99, 0x99), 0));
        y->setPadding(4);

        // Y range fixed per session so panning never rescales: 0..100 % (or the data's max).
        double maxAbs = 0, minV = 0;
        for (int s : panel.series) {
            const MetricLod &lod = m_metrics->series(s).lod;
            const MetricStats st = lod.statsOfIndices(0, lod.size());
            maxAbs = std::max(maxAbs, st.max);
            minV = std::min(minV, st.min);
        }
        // The unit follows the data (a few MiB used stay MiB beside an 80 GiB total); the range
        // keeps the capacity line in the chart.
        ui.scale = MetricUnits::scaleFor(panel.unit, maxAbs);
        for (int s : panel.limits) {
            const MetricLod &lod = m_metrics->series(s).lod;
            if (panel.limitsOnScale) maxAbs = std::max(maxAbs, lod.statsOfIndices(0, lod.size()).max);
        }
        const double top = panel.unit == QLatin1String("%") ? std::max(100.0, maxAbs * 1.05) : std::max(maxAbs * 1.12, 1e-9);
        y->setRange(minV / ui.scale.divisor, top / ui.scale.divisor);
        // Right-hand column per panel: bold title with the unit, then the legend, top-aligned (its
        // width set by fitSideColumns once every legend is filled).
        auto *side = new QCPLayoutGrid;
        m_plot->plotLayout()->addElement(p, 1, side);
        side->setRowSpacing(0);
        ui.side = side;
        ui.title = new QCPTextElement(m_plot, panel.title + (ui.scale.suffix.isEmpty() ? QString() : QStringLiteral(", ") + ui.scale.suffix), bold);
        ui.title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
        ui.title->setMargins(QMargins(8, 2, 2, 3));
        side->addElement(0, 0, ui.title);
        ui.legend = new QCPLegend;
        side->addElement(1, 0, ui.legend);
        side->addElement(2, 0, new QCPLayoutElement(m_plot));  // takes the remaining height
        side->setRowStretchFactors({0.001, 0.001, 1});
        ui.legend->setLayer(QStringLiteral("overlay"));
        ui.legend->setFont(small);
        ui.legend->setBorderPen(Qt::NoPen);
        ui.legend->setBrush(Qt::NoBrush);
        ui.legend->setMargins(QMargins(6, 0, 2, 2));
        ui.legend->setRowSpacing(0);

        for (int i = 0; i < int(panel.series.size()); ++i) {
            const MetricSeriesInfo &info = m_metrics->series(panel.series[size_t(i)]).info;
            // Points arrive already reduced to at most ~2 per pixel column: no adaptive sampling.
            QCPGraph *g = new ColumnEnvelopeGraph(x, y);
            g->setAdaptiveSampling(false);
            const QColor c = UtilizationPanels::seriesColor(info, i);
            g->setPen(QPen(c, 1.4));
            QColor fill = c;
            fill.setAlpha(panel.series.size() <= 2 && panel.unit == QLatin1String("%") ? (panel.series.size() == 1 ? 40 : 22) : 0);
            ui.colors.push_back(c);
            ui.fills.push_back(fill);
            ui.dots.push_back(sampleDot(c));
            g->removeFromLegend();
            ui.graphs.push_back(g);
        }

        // Capacities (memory.total): a dashed line at their value across the session, in the legend
        // with the value, so used memory reads against what there is.
        // GPUs of one model share one total: one line for each distinct value.
        std::vector<std::pair<double, std::vector<int>>> totals;
        for (int s : panel.limits) {
            const MetricSeries &series = m_metrics->series(s);
            const double value = series.lod.statsOfIndices(0, series.lod.size()).max;
            auto same = std::find_if(totals.begin(), totals.end(), [&](const auto &t) { return std::abs(t.first - value) <= 1e-6 * value; });
            if (same == totals.end()) totals.push_back({value, {s}});
            else same->second.push_back(s);
        }
        for (const auto &[value, members] : totals) {
            const MetricSeriesInfo &info = m_metrics->series(members.front()).info;
            auto *line = new QCPGraph(x, y);
            line->setPen(QPen(members.size() > 1 ? QColor(0x55, 0x55, 0x55) : UtilizationPanels::seriesColor(info, 0).darker(140), 1.2,
                              Qt::DashLine));
            line->setName((members.size() > 1 ? tr("total, each GPU") : UtilizationPanels::limitLabel(info, m_severalRuns)) +
                          QStringLiteral(" ") + MetricUnits::format(value, MetricUnits::scaleFor(panel.unit, value)) +
                          (panel.limitsOnScale ? QString() : tr("\n   above the chart")));
            line->removeFromLegend();
            ui.limits.push_back({line, value / ui.scale.divisor});
        }

        ui.crosshair = new QCPItemLine(m_plot);
        ui.selection = new QCPItemRect(m_plot);
        for (QCPItemPosition *pos : {ui.crosshair->start, ui.crosshair->end, ui.selection->topLeft, ui.selection->bottomRight}) {
            pos->setAxes(x, y);
            pos->setAxisRect(ui.rect);
            pos->setTypeX(QCPItemPosition::ptPlotCoords);
            pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        ui.crosshair->start->setCoords(0, 0);
        ui.crosshair->end->setCoords(0, 1);
        ui.crosshair->setPen(QPen(QColor(0x33, 0x33, 0x33, 170), 1, Qt::DashLine));
        ui.selection->setPen(QPen(QColor(0x2f, 0x6f, 0xb5, 160), 1));
        ui.selection->setBrush(QColor(0x2f, 0x6f, 0xb5, 38));
        for (QCPAbstractItem *item : {static_cast<QCPAbstractItem *>(ui.crosshair), static_cast<QCPAbstractItem *>(ui.selection)}) {
            item->setLayer(QStringLiteral("overlay"));
            item->setClipAxisRect(ui.rect);
            item->setClipToAxisRect(true);
            item->setVisible(false);
        }
        ui.drawn.assign(ui.graphs.size(), {false, 0});
        m_rects.push_back(ui);
        buildGroups(size_t(p));
    }
    m_plot->plotLayout()->setColumnSpacing(0);
    fillMemberBox();
    for (size_t p = 0; p < m_rects.size(); ++p) fillLegend(p);
    updateLegendNames(nullptr);
    fitSideColumns();  // also sets the charts' least height from the legends'
    updateOrigin();
    rebuildNoteLayers();
    m_range = {};
    applyRange(m_time->range().valid() ? m_time->range() : m_metrics->extent());
    m_plot->replot();  // sets up the layers' buffers, which the selection's overlay replot needs
    applySelection(m_time->selection());
}

void UtilizationView::applyRange(NsRange range) {
    if (!range.valid()) {
        const NsRange extent = m_metrics->extent();
        range = extent.valid() ? extent : NsRange{extent.start, extent.start + 1'000'000'000};
    }
    m_range = range;
    // The points now (cheap, and what the view reports from here on); the drawing once per
    // event-loop turn, however many range changes a wheel or a drag delivers in it.
    updatePoints();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UtilizationView::refresh() {
    updatePoints();
    m_plot->replot(QCustomPlot::rpRefreshHint);
}

void UtilizationView::updatePoints() {
    if (m_rects.empty()) {
        showRangeHeader();
        return;
    }
    const double x0 = double(m_range.start - m_origin) / 1e9, x1 = double(m_range.end - m_origin) / 1e9;
    for (size_t p = 0; p < m_rects.size(); ++p) {
        Panel &ui = m_rects[p];
        ui.rect->axis(QCPAxis::atBottom)->setRange(x0, x1);
        ui.width = ui.rect->width() > 10 ? ui.rect->width() : std::max(m_plot->width() - kLegendWidth - 60, 100);
        for (size_t i = 0; i < ui.graphs.size(); ++i) {
            SeriesPlotData::Result r = SeriesPlotData::make(m_metrics->series(m_panels[p].series[i]), m_range, ui.width, m_origin,
                                                            ui.scale.divisor);
            // A sample's value covers the period before it (utilization over the last period):
            // each step takes the value of the sample at its right end.
            // A series of changes (allocator totals) holds each value until the next: lsStepLeft.
            ui.graphs[i]->setLineStyle(r.stepped ? (r.holds ? QCPGraph::lsStepLeft : QCPGraph::lsStepRight) : QCPGraph::lsLine);
            ui.drawn[i] = {r.stepped, r.points.size()};
            styleGraph(p, i);
            ui.graphs[i]->data()->set(r.points, true);
        }
        for (size_t g = 0; g < ui.groups.size(); ++g) {
            std::vector<int> series;
            for (size_t i : ui.groups[g].series) series.push_back(m_panels[p].series[i]);
            ui.means[g]->data()->set(SeriesPlotData::meanOf(*m_metrics, series, m_range, ui.width, m_origin, ui.scale.divisor).points, true);
        }
        for (auto &[line, value] : ui.limits) {
            line->data()->clear();
            line->addData(x0, value);
            line->addData(x1, value);
        }
    }
    showRangeHeader();
    // A selection scrolled or zoomed out of view no longer describes what is shown.
    showSelectionStats(false);
}

void UtilizationView::showRangeHeader() {
    // Nothing charted (no metrics, still loading, no session): nothing to say, least of all the
    // previous session's range.
    if (m_rects.empty()) {
        m_header->clear();
        return;
    }
    // Both ends in the unit and precision of the span shown (formatTime), so they read alike and
    // tell apart however far from the start the view is.
    const int64_t t0 = m_range.start - m_origin, t1 = m_range.end - m_origin;
    const int64_t reference = m_range.duration() > 0 ? m_range.duration() : -1;
    m_header->setText(tr("Showing %1 – %2").arg(formatTime(t0, reference), formatTime(t1, reference)) +
                      (m_origin > kEpochThresholdNs ? tr("   ·   0:00 = %1").arg(wallClock(m_origin, false)) : QString()) +
                      tr("   ·   drag: select, wheel: zoom, shift-drag: pan, double-click: zoom to selection"));
}

void UtilizationView::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    // The selection's statistics take at most a third of the view (2 to 6 rows); the charts the rest.
    const int row = fontMetrics().height() + 4;
    m_stats->setMaximumRows(std::clamp(height() / 3 / row - 2, 2, 6));
    QTimer::singleShot(0, this, [this] {
        m_plot->plotLayout()->update(QCPLayoutElement::upLayout);  // new pixel widths → new buckets
        refresh();
    });
}

void UtilizationView::applySelection(NsRange selection) {
    for (Panel &ui : m_rects) {
        ui.selection->setVisible(selection.valid());
        ui.selection->topLeft->setCoords(double(selection.start - m_origin) / 1e9, 0);
        ui.selection->bottomRight->setCoords(double(selection.end - m_origin) / 1e9, 1);
    }
    showSelectionStats(true);
    if (!m_rects.empty()) m_plot->layer(QStringLiteral("overlay"))->replot();
}

void UtilizationView::showSelectionStats(bool again) {
    // The statistics describe the selection while some of it is in view. Zoomed or panned entirely
    // away from it they are put away, not the selection itself: it belongs to every view (the
    // timeline draws it, the Range tab lists it, Back returns to it), and they come back with it.
    const NsRange sel = m_time->selection();
    const bool inView = sel.valid() && sel.start < m_range.end && sel.end > m_range.start;
    const bool partly = inView && (sel.start < m_range.start || sel.end > m_range.end);
    const int64_t s0 = sel.start - m_origin, s1 = sel.end - m_origin;
    const int64_t reference = sel.duration() > 0 ? sel.duration() : -1;
    const QString title = tr("Selection %1 – %2 (%3): min / mean / max of the samples inside")
                              .arg(formatTime(s0, reference), formatTime(s1, reference), formatTime(sel.duration())) +
                          (partly ? tr(" (partly outside the view)") : QString());
    if (!again) {  // a range change: work only when what the table says changes
        if (!inView && !m_stats->isVisibleTo(this)) return;
        if (inView && m_stats->isVisibleTo(this) && m_stats->title() == title) return;
    }
    m_stats->setStats(title, inView ? selectionStats() : std::vector<SeriesRangeStats>{});
    // The table's height changed: lay out now, not on the next event-loop pass.
    layout()->invalidate();
    layout()->activate();
}

std::vector<SeriesRangeStats> UtilizationView::selectionStats() const {
    std::vector<SeriesRangeStats> out;
    const NsRange sel = m_time->selection();
    if (!sel.valid()) return out;
    for (size_t p = 0; p < m_panels.size(); ++p)
        for (int s : m_panels[p].series) {
            const MetricSeriesInfo &info = m_metrics->series(s).info;
            out.push_back({s, m_panels[p].title, UtilizationPanels::seriesLabel(info, m_severalRuns),
                           MetricUnits::sampling(info.periodNs, m_metrics->series(s).lod.size()), m_metrics->stats(s, sel),
                           m_rects[p].scale});
        }
    return out;
}

QStringList UtilizationView::showCrosshair(std::optional<int64_t> t) {
    QStringList values;
    ValuesAt at(m_rects.size());
    for (size_t p = 0; p < m_rects.size(); ++p) {
        Panel &ui = m_rects[p];
        ui.crosshair->setVisible(t.has_value());
        if (t) {
            const double x = double(*t - m_origin) / 1e9;
            ui.crosshair->start->setCoords(x, 0);
            ui.crosshair->end->setCoords(x, 1);
            for (int s : m_panels[p].series) {
                const auto v = m_metrics->valueAt(s, *t);
                at[p].push_back(v);
                values << UtilizationPanels::seriesLabel(m_metrics->series(s).info, m_severalRuns) + QStringLiteral(": ") +
                              (v ? MetricUnits::format(*v, ui.scale) : QStringLiteral("–"));
            }
        }
    }
    updateLegendNames(t ? &at : nullptr);
    if (t) {
        // In the unit the visible range is shown in (showRangeHeader), so the header keeps its form.
        const int64_t reference = m_range.duration() > 0 ? m_range.duration() : -1;
        m_header->setText(tr("At %1").arg(formatTime(*t - m_origin, reference)) +
                          (m_origin > kEpochThresholdNs ? QStringLiteral("   (%1)").arg(wallClock(*t, true)) : QString()));
    } else {
        showRangeHeader();
    }
    if (!m_rects.empty()) m_plot->layer(QStringLiteral("overlay"))->replot();
    return values;
}

} // namespace stepscope

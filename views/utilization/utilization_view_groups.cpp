// UtilizationView's grouped panels and legends. A panel of many series from several ranks, hosts or
// GPUs (UtilizationPanels::groups) draws every member thin and grey — overlapping 1 px lines, which
// ColumnEnvelopeGraph paints as per-column runs, so together they fill the band from the lowest to
// the highest member in each pixel column — under the members' mean (SeriesPlotData::meanOf). One
// member is drawn in its colour, above the others, and named in the legend: the one whose line is
// under the pointer, else the one picked in the header's box (remembered in QSettings). The legend
// column is as wide as its widest entry and each chart at least as tall as its legend.

#include "views/utilization/utilization_view.h"

#include "models/colors/palette.h"
#include "views/utilization/column_envelope_graph.h"
#include "views/utilization/utilization_view_panel.h"

#include <QCollator>
#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <qcustomplot.h>

#include <algorithm>
#include <limits>

namespace stepscope {

namespace {
constexpr double kNearMemberPx = 6;  // the pointer this close to a member's line highlights it
constexpr const char *kMemberSetting = "utilization/member";  // QSettings: the user's habit, not the session's
} // namespace

bool UtilizationView::panelGrouped(size_t p) const { return p < m_rects.size() && !m_rects[p].groups.empty(); }

QStringList UtilizationView::members() const {
    QStringList out;
    for (const QString &m : m_memberOf)
        if (!m.isEmpty() && !out.contains(m)) out << m;
    QCollator natural;  // rank-2 before rank-10
    natural.setNumericMode(true);
    std::sort(out.begin(), out.end(), [&](const QString &a, const QString &b) { return natural.compare(a, b) < 0; });
    return out;
}

bool UtilizationView::isHighlighted(size_t p, size_t i) const {
    const QString who = highlightedMember();
    return panelGrouped(p) && !who.isEmpty() && m_memberOf[size_t(m_panels[p].series[i])] == who;
}

void UtilizationView::buildGroups(size_t p) {
    Panel &ui = m_rects[p];
    const UtilizationPanel &panel = m_panels[p];
    ui.groups = UtilizationPanels::groups(panel, *m_metrics);
    QCPAxis *x = ui.rect->axis(QCPAxis::atBottom), *y = ui.rect->axis(QCPAxis::atLeft);
    for (const UtilizationGroup &group : ui.groups) {
        for (size_t i : group.series) {
            const int s = panel.series[i];
            m_memberOf[size_t(s)] = m_members.label(m_metrics->series(s).info);
        }
        // One point per pixel column: a smooth line, cheap at any width.
        auto *mean = new ColumnEnvelopeGraph(x, y);
        mean->setAdaptiveSampling(false);
        mean->setPen(QPen(UtilizationPanels::meanColor(m_metrics->series(panel.series[group.series.front()]).info), 1.8));
        mean->setAntialiased(true);
        mean->removeFromLegend();
        ui.means.push_back(mean);
    }
}

void UtilizationView::fillMemberBox() {
    const QStringList list = members();
    m_memberCaption->setText(m_members.noun() == QLatin1String("rank") ? tr("Rank:") : tr("GPU:"));
    m_memberCaption->setVisible(!list.isEmpty());
    m_memberBox->setVisible(!list.isEmpty());
    const QSignalBlocker block(m_memberBox);
    m_memberBox->clear();
    m_memberBox->addItem(m_members.noun() == QLatin1String("rank") ? tr("all ranks: mean and range") : tr("all GPUs: mean and range"),
                         QString());
    for (const QString &m : list) m_memberBox->addItem(m, m);
    const QString saved = m_remembersMember ? QSettings().value(QLatin1String(kMemberSetting)).toString() : m_chosen;
    m_chosen = list.contains(saved) ? saved : QString();
    m_memberBox->setCurrentIndex(int(list.indexOf(m_chosen)) + 1);
}

void UtilizationView::chooseMember(const QString &member) {
    const QStringList list = members();
    m_chosen = list.contains(member) ? member : QString();
    if (m_remembersMember) QSettings().setValue(QLatin1String(kMemberSetting), m_chosen);
    {
        const QSignalBlocker block(m_memberBox);
        m_memberBox->setCurrentIndex(int(list.indexOf(m_chosen)) + 1);
    }
    restyle();
}

void UtilizationView::setRemembersMember(bool on) {
    if (on == m_remembersMember) return;
    m_remembersMember = on;
    if (!on) m_chosen.clear();  // what was read from the settings
    fillMemberBox();
    restyle();
}

void UtilizationView::setHoveredMember(const QString &member) {
    if (member == m_hovered) return;
    m_hovered = member;
    restyle();
}

QString UtilizationView::memberNear(const QPointF &pos) const {
    QCPAxisRect *rect = rectAt(pos);
    for (size_t p = 0; p < m_rects.size(); ++p) {
        if (m_rects[p].rect != rect || !panelGrouped(p)) continue;
        double best = kNearMemberPx;
        QString who;
        for (size_t i = 0; i < m_rects[p].graphs.size(); ++i) {
            const double d = m_rects[p].graphs[i]->selectTest(pos, false);
            if (d >= 0 && d <= best) {
                best = d;
                who = m_memberOf[size_t(m_panels[p].series[i])];
            }
        }
        return who;
    }
    return {};
}

void UtilizationView::styleGraph(size_t p, size_t i) {
    Panel &ui = m_rects[p];
    QCPGraph *g = ui.graphs[i];
    const auto [stepped, points] = ui.drawn[i];
    const bool grouped = panelGrouped(p), lit = isHighlighted(p, i), muted = grouped && !lit;
    // Few segments: smooth antialiased steps (1.6 px; 2.2 px for a highlighted member). Many (dense
    // columns, or steps at more than one per 4 px): a 1 px aliased line (2 px highlighted), which
    // ColumnEnvelopeGraph paints as per-column pixel runs — a wide or antialiased pen is stroked as
    // a filled outline, far over the frame budget. A grouped panel's grey members: always 1 px.
    const bool smooth = !muted && stepped && points * 4 <= ui.width;
    QPen pen(muted ? QColor(kMemberGrey) : ui.colors[i]);
    pen.setWidthF(smooth ? (lit ? 2.2 : 1.6) : (lit ? 2.0 : 1.0));
    pen.setCosmetic(!smooth);
    g->setPen(pen);
    g->setAntialiased(smooth);
    // Sparse samples (zoomed in, or a one-off snapshot) get a dot at each sample instant.
    const bool dots = !muted && stepped && points * 8 <= ui.width;
    g->setScatterStyle(dots ? ui.dots[i] : QCPScatterStyle());
    // A soft fill under sparse steps; never under the dense per-pixel zigzag, whose
    // self-intersecting polygon costs the raster engine hundreds of ms.
    g->setBrush(!grouped && stepped && ui.fills[i].alpha() > 0 ? QBrush(ui.fills[i]) : QBrush(Qt::NoBrush));
    g->setLayer(lit ? QStringLiteral("highlight") : QStringLiteral("main"));
}

void UtilizationView::restyle() {
    for (size_t p = 0; p < m_rects.size(); ++p) {
        if (!panelGrouped(p)) continue;
        for (size_t i = 0; i < m_rects[p].graphs.size(); ++i) styleGraph(p, i);
        fillLegend(p);
    }
    updateLegendNames(nullptr);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UtilizationView::fillLegend(size_t p) {
    Panel &ui = m_rects[p];
    ui.legend->clearItems();
    const auto add = [&](QCPAbstractPlottable *g) {
        g->addToLegend(ui.legend);
        ui.legend->itemWithPlottable(g)->setLayer(QStringLiteral("overlay"));  // hover repaints only this layer
    };
    if (!panelGrouped(p)) {
        for (QCPGraph *g : ui.graphs) add(g);
    } else {
        for (QCPGraph *mean : ui.means) add(mean);
        for (size_t i = 0; i < ui.graphs.size(); ++i)
            if (isHighlighted(p, i)) add(ui.graphs[i]);
    }
    for (const auto &limit : ui.limits) add(limit.first);
}

QString UtilizationView::groupLegendName(size_t p, size_t g, const ValuesAt *values) const {
    const Panel &ui = m_rects[p];
    const UtilizationGroup &group = ui.groups[g];
    const QString who = QStringLiteral("%1 %2s").arg(group.series.size()).arg(m_members.noun());
    const QString head = ui.groups.size() > 1 ? tr("%1, mean of %2").arg(group.role, who) : tr("mean of %1").arg(who);
    if (!values) {
        const MetricSeries &first = m_metrics->series(m_panels[p].series[group.series.front()]);
        return head + QStringLiteral("\n   ") + tr("each in grey · %1").arg(MetricUnits::sampling(first.info.periodNs, first.lod.size()));
    }
    // The mean over the members with a value at the instant (as the line is drawn), and their range.
    double sum = 0, lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
    int n = 0;
    for (size_t i : group.series)
        if (const std::optional<double> v = (*values)[p][i]) {
            sum += *v;
            lo = std::min(lo, *v);
            hi = std::max(hi, *v);
            ++n;
        }
    if (n == 0) return head + QStringLiteral("\n   –");
    UnitScale bare = ui.scale;
    bare.suffix.clear();
    return head + QStringLiteral("\n   ") +
           tr("%1 (%2–%3)").arg(MetricUnits::format(sum / n, ui.scale), MetricUnits::format(lo, bare), MetricUnits::format(hi, bare));
}

void UtilizationView::updateLegendNames(const ValuesAt *values) {
    for (size_t p = 0; p < m_rects.size(); ++p) {
        Panel &ui = m_rects[p];
        for (size_t i = 0; i < ui.graphs.size(); ++i) {
            const MetricSeries &s = m_metrics->series(m_panels[p].series[i]);
            const QString label = UtilizationPanels::seriesLabel(s.info, m_severalRuns);
            const std::optional<double> v = values ? (*values)[p][i] : std::nullopt;
            // Name, then the value (or how often it was sampled) on a line of its own: both fit the legend.
            ui.graphs[i]->setName(label + QStringLiteral("\n   ") +
                                  (!values ? MetricUnits::sampling(s.info.periodNs, s.lod.size())
                                   : v     ? MetricUnits::format(*v, ui.scale)
                                           : QStringLiteral("–")));
        }
        for (size_t g = 0; g < ui.groups.size(); ++g) ui.means[g]->setName(groupLegendName(p, g, values));
    }
}

void UtilizationView::fitSideColumns() {
    // Measured with the most the legends can show: a highlighted member's entries (the one with the
    // longest name) and values under the pointer (each series' largest, the widest figures).
    ValuesAt widest(m_rects.size());
    for (size_t p = 0; p < m_rects.size(); ++p)
        for (int s : m_panels[p].series) {
            const MetricLod &lod = m_metrics->series(s).lod;
            widest[p].push_back(lod.statsOfIndices(0, lod.size()).max);
        }
    const QString hovered = m_hovered;
    const QStringList list = members();
    for (const QString &m : list)
        if (m_hovered.isEmpty() || m.size() > m_hovered.size()) m_hovered = m;
    for (size_t p = 0; p < m_rects.size(); ++p) fillLegend(p);
    int width = kLegendWidth;
    std::vector<int> heights(m_rects.size(), 0);
    for (const ValuesAt *names : {static_cast<const ValuesAt *>(nullptr), static_cast<const ValuesAt *>(&widest)}) {
        updateLegendNames(names);
        for (size_t p = 0; p < m_rects.size(); ++p) {
            const Panel &ui = m_rects[p];
            const QSize title = static_cast<const QCPLayoutElement *>(ui.title)->minimumOuterSizeHint();  // public there
            width = std::max(width, title.width());
            const int margins = ui.legend->margins().left() + ui.legend->margins().right();
            for (int k = 0; k < ui.legend->itemCount(); ++k)
                width = std::max(width, ui.legend->item(k)->minimumOuterSizeHint().width() + margins);
            heights[p] = std::max(heights[p], title.height() + ui.legend->minimumOuterSizeHint().height());
        }
    }
    m_hovered = hovered;
    for (size_t p = 0; p < m_rects.size(); ++p) fillLegend(p);
    updateLegendNames(nullptr);
    width = std::min(width, kMaxLegendWidth);
    for (Panel &ui : m_rects) {
        ui.side->setMinimumSize(width, 0);
        ui.side->setMaximumSize(width, QWIDGETSIZE_MAX);
    }
    // Each chart's data area at least kMinChartHeight plus its axis margins, and as tall as its
    // legend column; the time labels under the last one.
    int total = kTimeAxisHeight;
    for (int h : heights) total += std::max(kMinChartHeight + kChartMargins, h);
    m_plot->setMinimumHeight(std::max(200, total));
}

} // namespace stepscope

#pragma once
// UtilizationView: the machine's vital signs as stacked charts (GPU utilization per GPU, GPU memory,
// CPU machine/mean/busiest core, host memory, network, disk, I/O wait — only panels with data)
// sharing one time axis that follows the shared TimeRangeController. Hovering draws a crosshair
// through every panel and shows each series' value at that instant in the legends; a left-drag
// selects a range (published as the controller's selection) and lists min/mean/max per series;
// the wheel zooms, a middle- or shift-drag pans. Each legend entry shows the series' sampling
// period. A panel of many series from several ranks, hosts or GPUs (UtilizationPanels::groups) is
// drawn grouped: every member thin and grey under the members' mean, one member in colour and
// named in the legend while the pointer is near its line or when picked in the header's box.
// Created by MainWindow in the "Utilization" dock; data comes from MetricSeriesModel.

#include "models/metrics/metric_series_model.h"
#include "models/metrics/metric_units.h"
#include "models/qt/time_range_controller.h"
#include "views/utilization/utilization_panels.h"

#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemLine;
class QCPItemRect;
class QCPLegend;
class QComboBox;
class QLabel;
class QScrollArea;
class QMouseEvent;
class QWheelEvent;

namespace stepscope {

class RangeStatsTable;
class AnnotationModel;
class AnnotationPlotLayer;

struct SeriesRangeStats {
    int series = 0;  // model index
    QString panel, label, period;
    MetricStats stats;  // in stored units
    UnitScale scale;    // how the panel shows them
};

class UtilizationView : public QWidget {
    Q_OBJECT
public:
    UtilizationView(MetricSeriesModel *metrics, TimeRangeController *time, QWidget *parent = nullptr);
    ~UtilizationView() override;

    // The least height of a chart's data area (px): below it the view scrolls instead.
    static constexpr int kMinChartHeight = 90;
    static constexpr int kChartMargins = 36;    // a chart's axis margins above and below
    static constexpr int kTimeAxisHeight = 40;  // the time labels under the last chart
    // The legend column's width: at least this, wider when a title or legend entry needs it (never
    // cut), at most kMaxLegendWidth.
    static constexpr int kLegendWidth = 210;
    static constexpr int kMaxLegendWidth = 320;

    QCustomPlot *plot() const { return m_plot; }
    const std::vector<UtilizationPanel> &panels() const { return m_panels; }
    NsRange shownRange() const { return m_range; }
    int64_t originNs() const { return m_origin; }
    // How panel p shows its values: its graphs hold stored value / divisor.
    UnitScale panelScale(size_t p) const;

    // Crosshair at instant t (what hovering does); nullopt hides it. Returns "label: value" per
    // series, in panel order ("–" where the series has no sample at that instant).
    QStringList showCrosshair(std::optional<int64_t> t);
    // min/mean/max of every shown series over the controller's selection (empty when none).
    std::vector<SeriesRangeStats> selectionStats() const;
    // Re-fetches the points for the current range and width and replots now (benchmarks time it).
    void refresh();
    // Draws the session's notes on every panel and offers "Annotate…" on right-click.
    void setAnnotations(AnnotationModel *notes);
    int annotationItemCount() const;

    // Grouped panels. members(): the ranks (or GPUs) the header's box lists, in natural order; empty
    // when no panel is grouped. The highlighted member is the one under the pointer, else the one
    // chosen in the box (remembered in QSettings "utilization/member"); empty: the summary alone.
    bool panelGrouped(size_t p) const;
    QStringList members() const;
    QString chosenMember() const { return m_chosen; }
    QString highlightedMember() const { return m_hovered.isEmpty() ? m_chosen : m_hovered; }
    void chooseMember(const QString &member);  // what picking in the box does; "" or unknown: none
    // Off (headless pictures): the remembered member is neither applied nor changed.
    void setRemembersMember(bool on);
    // Whether graph i of panel p is drawn as its member's highlighted line.
    bool isHighlighted(size_t p, size_t i) const;
    // The member whose line passes within a few pixels of `pos` in a grouped panel ("" if none).
    QString memberNear(const QPointF &pos) const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Panel;
    void rebuild();
    static QString emptyText();
    void rebuildNoteLayers();
    AnnotationPlotLayer *noteLayerFor(QCPAxisRect *rect) const;
    void applyRange(NsRange range);
    void updatePoints();
    void applySelection(NsRange selection);
    void updateOrigin();
    int64_t nsAt(double pixelX) const;
    QCPAxisRect *rectAt(const QPointF &pos) const;
    void onMousePress(QMouseEvent *e);
    void onMouseMove(QMouseEvent *e);
    void onMouseRelease(QMouseEvent *e);
    void onWheel(QWheelEvent *e);
    void onMouseDoubleClick(QMouseEvent *e);
    using ValuesAt = std::vector<std::vector<std::optional<double>>>;  // per panel, per series
    void updateLegendNames(const ValuesAt *values);
    void showRangeHeader();
    // The selection's statistics, or none when it is out of view; `again`: recomputed even when the
    // table already shows this selection (a new selection, new data).
    void showSelectionStats(bool again);
    // Grouped panels (utilization_view_groups.cpp).
    void buildGroups(size_t p);
    void fillMemberBox();
    void setHoveredMember(const QString &member);
    void styleGraph(size_t p, size_t i);
    void restyle();
    void fillLegend(size_t p);
    void fitSideColumns();
    QString groupLegendName(size_t p, size_t g, const ValuesAt *values) const;

    MetricSeriesModel *m_metrics;
    TimeRangeController *m_time;
    QCustomPlot *m_plot;
    QLabel *m_header;
    QLabel *m_memberCaption;
    QComboBox *m_memberBox;
    QLabel *m_empty;
    RangeStatsTable *m_stats;
    QScrollArea *m_scroll;
    std::vector<UtilizationPanel> m_panels;
    std::vector<Panel> m_rects;
    bool m_severalRuns = false;
    UtilizationMembers m_members;
    std::vector<QString> m_memberOf;  // per model series: its member in a grouped panel, else ""
    QString m_chosen, m_hovered;
    bool m_remembersMember = true;
    NsRange m_range;
    AnnotationModel *m_notes = nullptr;
    std::vector<std::unique_ptr<AnnotationPlotLayer>> m_noteLayers;  // one per panel
    int64_t m_origin = 0;
    // Mouse gesture state.
    enum class Drag { None, Select, Pan } m_drag = Drag::None;
    int64_t m_dragStartNs = 0;
    double m_dragStartX = 0;
    NsRange m_dragStartRange;
};

} // namespace stepscope

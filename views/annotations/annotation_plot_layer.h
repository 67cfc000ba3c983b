#pragma once
// AnnotationPlotLayer draws the shared annotations on a QCustomPlot chart as plot items (a faint band,
// a coloured strip along the top and the note's text), so they come along in every grab and export.
// The caller says how a note maps onto its key axis: time charts use timeKeys() (seconds since an
// origin), the step bars map a note onto the steps it spans. It rebuilds its items when the
// AnnotationModel changes; call refresh() after the chart's own data (and so the mapping) changed.
// Created by StepTimeView and the utilization charts. Up to kMaxNoteItems notes on a chart get their
// own items; beyond that (a session may hold 200 k notes) one item draws them all as a density strip
// with a count, so the chart's cost does not grow with the notes.

#include "models/annotations/annotation_model.h"

#include <QObject>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPAxis;
class QCPAxisRect;
class QCPItemText;
class QMenu;

namespace stepscope {

class AnnotationPlotLayer : public QObject {
    Q_OBJECT
public:
    // Key range [lo, hi] a note covers on the plot's x axis; nullopt when it is not on this chart.
    using KeyRange = std::function<std::optional<std::pair<double, double>>(const Annotation &)>;

    static constexpr int kMaxNoteItems = 100;

    AnnotationPlotLayer(QCustomPlot *plot, AnnotationModel *model, KeyRange keys);

    // For charts whose key is seconds since `originNs()` (read on every refresh).
    static KeyRange timeKeys(std::function<int64_t()> originNs, double nsPerKey = 1e9);

    // Charts with several axis rects (the utilization panels) give each layer its own rect;
    // by default the plot's main axes are used.
    void setAxisRect(QCPAxisRect *rect) { m_rect = rect; }
    void refresh();
    int itemCount() const { return int(m_items.size()); }
    // The note drawn at plot pixel x (its band), 0 when none.
    int64_t annotationAtPixel(double x) const;
    // The whole text of the note whose label or band is at plot pixel (x, y), for a tooltip; empty
    // when none (a label cut at the chart's edge still shows whole there).
    QString noteTextAt(double x, double y) const;
    // "Annotate…" for [startNs, endNs] (a point when equal), plus edit/delete of the note at pixel x.
    void addMenuActions(QMenu &menu, QWidget *parent, double pixelX, int64_t startNs, int64_t endNs, const QString &what);

private:
    QCPAxis *keyAxis() const;
    void place(QCPAbstractItem *item) const;

    QCustomPlot *m_plot;
    QCPAxisRect *m_rect = nullptr;
    AnnotationModel *m_model;
    KeyRange m_keys;
    std::vector<QCPAbstractItem *> m_items;
    std::vector<std::pair<std::pair<double, double>, int64_t>> m_ranges;  // key range -> note id
    std::vector<std::pair<QCPItemText *, int64_t>> m_labels;              // each label's note id
};

} // namespace stepscope

// UtilizationView's mouse gestures: hover crosshair, drag-select, wheel zoom, shift/middle-drag pan,
// double-click zoom, a grouped panel's member under the pointer. Every range change goes through the
// shared TimeRangeController.

#include "views/utilization/utilization_view.h"

#include "views/annotations/annotation_plot_layer.h"

#include <QMenu>

#include <QMouseEvent>
#include <QTimer>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <cmath>

namespace stepscope {

namespace {
constexpr double kClickSlopPx = 3;
}

QCPAxisRect *UtilizationView::rectAt(const QPointF &pos) const {
    for (QCPAxisRect *r : m_plot->axisRects())
        if (r->rect().contains(pos.toPoint())) return r;
    return nullptr;
}

int64_t UtilizationView::nsAt(double pixelX) const {
    if (m_plot->axisRects().isEmpty()) return m_range.start;
    const double s = m_plot->axisRects().front()->axis(QCPAxis::atBottom)->pixelToCoord(pixelX);
    return m_origin + int64_t(std::llround(s * 1e9));
}

void UtilizationView::onMousePress(QMouseEvent *e) {
    QCPAxisRect *rect = rectAt(e->position());
    if (!rect) return;
    if (e->button() == Qt::RightButton && m_notes) {
        // Annotate the selection when the click is inside it, else the instant under the cursor.
        const int64_t t = nsAt(e->position().x());
        const NsRange sel = m_time->selection();
        const bool inSel = sel.valid() && t >= sel.start && t <= sel.end;
        QMenu menu(this);
        if (AnnotationPlotLayer *layer = noteLayerFor(rect))
            layer->addMenuActions(menu, this, e->position().x(), inSel ? sel.start : t, inSel ? sel.end : t,
                                  inSel ? tr("Selection") : tr("Instant"));
        if (!menu.isEmpty()) menu.exec(e->globalPosition().toPoint());
        return;
    }
    m_dragStartX = e->position().x();
    m_dragStartNs = nsAt(m_dragStartX);
    m_dragStartRange = m_range;
    const bool pan = e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
    m_drag = pan ? Drag::Pan : e->button() == Qt::LeftButton ? Drag::Select : Drag::None;
}

void UtilizationView::onMouseMove(QMouseEvent *e) {
    const double x = e->position().x();
    if (m_drag == Drag::Pan) {
        const double nsPerPx = double(m_dragStartRange.duration()) /
                               std::max(1, m_plot->axisRects().front()->width());
        const int64_t shift = int64_t(std::llround((m_dragStartX - x) * nsPerPx));
        m_time->setRange({m_dragStartRange.start + shift, m_dragStartRange.end + shift}, false);
    } else if (m_drag == Drag::Select && std::fabs(x - m_dragStartX) >= kClickSlopPx) {
        m_time->setSelection({m_dragStartNs, nsAt(x)});
    }
    // A grouped panel's member under the pointer is drawn in colour (not while dragging).
    if (m_drag == Drag::None) setHoveredMember(memberNear(e->position()));
    showCrosshair(rectAt(e->position()) ? std::optional<int64_t>(nsAt(x)) : std::nullopt);
}

void UtilizationView::onMouseRelease(QMouseEvent *e) {
    if (m_drag == Drag::Pan) m_time->commitHistory();
    else if (m_drag == Drag::Select && std::fabs(e->position().x() - m_dragStartX) < kClickSlopPx) m_time->clearSelection();
    m_drag = Drag::None;
}

void UtilizationView::onWheel(QWheelEvent *e) {
    if (!rectAt(e->position())) return;
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    const double factor = std::pow(0.8, steps);
    const int64_t anchor = nsAt(e->position().x());
    const NsRange r = m_range;
    const int64_t start = anchor - int64_t(std::llround(double(anchor - r.start) * factor));
    const int64_t end = anchor + int64_t(std::llround(double(r.end - anchor) * factor));
    m_time->setRange({start, end}, false);  // one history entry per wheel gesture, when it pauses
    e->accept();
}

void UtilizationView::onMouseDoubleClick(QMouseEvent *) {
    if (m_time->selection().valid()) m_time->zoomToSelection();
    else m_time->zoomToFull();
}

bool UtilizationView::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_plot && event->type() == QEvent::Leave && m_drag == Drag::None) {
        setHoveredMember({});
        showCrosshair(std::nullopt);
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace stepscope

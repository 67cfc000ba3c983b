#include "views/annotations/timeline_annotation_overlay.h"

#include "views/annotations/annotation_dialog.h"

#include <QMenu>
#include <QWidget>

namespace stepscope {

TimelineAnnotationOverlay::TimelineAnnotationOverlay(SessionModel *session, TimeRangeController *time, QWidget *view)
    : QObject(view), m_model(session ? AnnotationModel::of(session) : nullptr), m_time(time), m_view(view) {
    if (m_model) connect(m_model, &AnnotationModel::changed, view, qOverload<>(&QWidget::update));
}

void TimelineAnnotationOverlay::paint(QPainter &p, const QRect &area, const std::function<double(int64_t)> &xOf) {
    if (!m_model) return;
    const NsRange r = m_time->range();
    AnnotationPainter::paint(p, m_model->inRange(r.start, r.end), area, xOf, &m_hits);
}

int64_t TimelineAnnotationOverlay::annotationAt(QPointF pos) const {
    for (size_t i = 0; i < m_hits.size(); i += 2)  // labels sit at even indices, bands after them
        if (m_hits[i].rect.contains(pos)) return m_hits[i].id;
    for (size_t i = 1; i < m_hits.size(); i += 2)
        if (m_hits[i].rect.contains(pos)) return m_hits[i].id;
    return 0;
}

void TimelineAnnotationOverlay::addMenuActions(QMenu &menu, QPointF pos, int64_t t) {
    if (!m_model) return;
    const NsRange sel = m_time->selection();
    if (sel.valid() && t >= sel.start && t <= sel.end) {
        menu.addAction(tr("Annotate Selection…"), m_view, [this, sel] { AnnotationDialog::create(m_view, m_model, sel.start, sel.end); });
    } else {
        menu.addAction(tr("Annotate Here…"), m_view, [this, t] { AnnotationDialog::create(m_view, m_model, t, t); });
        if (sel.valid())
            menu.addAction(tr("Annotate Selection…"), m_view, [this, sel] { AnnotationDialog::create(m_view, m_model, sel.start, sel.end); });
    }
    if (const int64_t id = annotationAt(pos); id != 0) {
        const Annotation *a = m_model->find(id);
        const QString text = a ? QString::fromStdString(a->text).left(40) : QString();
        if (id > 0) {
            menu.addAction(tr("Edit “%1”…").arg(text), m_view, [this, id] { AnnotationDialog::edit(m_view, m_model, id); });
            menu.addAction(tr("Delete “%1”").arg(text), m_view, [this, id] { m_model->remove(id); });
        }
    }
}

} // namespace stepscope

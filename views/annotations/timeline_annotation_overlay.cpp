#include "views/annotations/timeline_annotation_overlay.h"

#include "models/text/display_text.h"
#include "views/annotations/annotation_dialog.h"

#include <QMenu>
#include <QWidget>

namespace stepscope {

TimelineAnnotationOverlay::TimelineAnnotationOverlay(AnnotationModel *model, TimeRangeController *time, QWidget *view)
    : QObject(view), m_model(model), m_time(time), m_view(view) {
    if (!m_model) return;
    connect(m_model, &AnnotationModel::changed, this, [this] {
        m_indexStale = true;  // the model's list moved: the index points into it
        m_hits.clear();
    });
    connect(m_model, &AnnotationModel::changed, view, qOverload<>(&QWidget::update));
}

void TimelineAnnotationOverlay::paint(QPainter &p, const QRect &area, const std::function<double(int64_t)> &xOf) {
    if (!m_model) return;
    if (m_indexStale) {
        m_index.rebuild(m_model->annotations());
        m_indexStale = false;
    }
    const NsRange r = m_time->range();
    AnnotationPainter::paint(p, m_index.overlapping(r.start, r.end), area, xOf, &m_hits);
}

int64_t TimelineAnnotationOverlay::annotationAt(QPointF pos) const {
    for (bool labels : {true, false})  // a label over another note's band wins
        for (const AnnotationHit &h : m_hits)
            if (h.label == labels && h.rect.contains(pos)) return h.id;
    return 0;
}

void TimelineAnnotationOverlay::addMenuActions(QMenu &menu, QPointF pos, int64_t t, std::optional<NsRange> slice) {
    if (!m_model) return;
    const NsRange sel = m_time->selection();
    if (sel.valid() && t >= sel.start && t <= sel.end) {
        menu.addAction(tr("Annotate Selection…"), m_view, [this, sel] { AnnotationDialog::create(m_view, m_model, sel.start, sel.end); });
    } else {
        // On a slice its span is what the user means; elsewhere the moment under the pointer.
        if (slice && slice->valid())
            menu.addAction(tr("Annotate This Slice…"), m_view,
                           [this, r = *slice] { AnnotationDialog::create(m_view, m_model, r.start, r.end); });
        menu.addAction(tr("Annotate Here…"), m_view, [this, t] { AnnotationDialog::create(m_view, m_model, t, t); });
        if (sel.valid())
            menu.addAction(tr("Annotate Selection…"), m_view, [this, sel] { AnnotationDialog::create(m_view, m_model, sel.start, sel.end); });
    }
    if (const int64_t id = annotationAt(pos); id != 0) {
        const Annotation *a = m_model->find(id);
        const QString text = a ? labelText(a->text, 40) : QString();
        if (id > 0) {
            menu.addAction(tr("Edit “%1”…").arg(text), m_view, [this, id] { AnnotationDialog::edit(m_view, m_model, id); });
            menu.addAction(tr("Delete “%1”").arg(text), m_view, [this, id] { m_model->remove(id); });
        }
    }
}

} // namespace stepscope

#pragma once
// TimelineAnnotationOverlay puts the shared annotations on the trace timeline: TimelineView owns one,
// calls paint() at the end of its paintEvent and addMenuActions() from its context menu ("Annotate
// here…", "Annotate selection…", edit/delete the note under the cursor). It repaints the timeline when
// the AnnotationModel changes. Kept out of TimelineView so the timeline's files stay about the trace.

#include "models/annotations/annotation_model.h"
#include "models/qt/time_range_controller.h"
#include "views/annotations/annotation_painter.h"
#include "views/annotations/annotation_time_index.h"

#include <QObject>

#include <functional>
#include <optional>

class QMenu;

namespace stepscope {

class TimelineAnnotationOverlay : public QObject {
    Q_OBJECT
public:
    // `model` (the session's notes, from the view's owner) may be null (tests that load the timeline
    // model themselves): then nothing is drawn.
    TimelineAnnotationOverlay(AnnotationModel *model, TimeRangeController *time, QWidget *view);

    AnnotationModel *model() const { return m_model; }
    void paint(QPainter &p, const QRect &area, const std::function<double(int64_t)> &xOf);
    // The note whose label or band is at `pos` (labels first); 0 when none.
    int64_t annotationAt(QPointF pos) const;
    // Adds the annotation entries for a right-click at `pos` (time `t`) to `menu`.
    // `slice`: the span of the slice under the pointer, if any ("Annotate This Slice…" marks it).
    void addMenuActions(QMenu &menu, QPointF pos, int64_t t, std::optional<NsRange> slice = std::nullopt);

private:
    AnnotationModel *m_model = nullptr;
    TimeRangeController *m_time;
    QWidget *m_view;
    std::vector<AnnotationHit> m_hits;
    AnnotationTimeIndex m_index;
    bool m_indexStale = true;
};

} // namespace stepscope

#pragma once
// AnnotationPainter draws annotations over any area whose x axis is time: a translucent band with
// edge lines for a range note, a line with a flag for a point note, and the note's text in a label at
// the top of the area (labels that would overlap go on the next row). Stateless; TimelineView (through
// TimelineAnnotationOverlay) calls it from paintEvent, so widget grabs and exports carry the notes.
// It records where each label landed so a view can answer clicks on it.

#include "models/annotations/annotation_store.h"

#include <QPainter>
#include <QRectF>

#include <functional>
#include <vector>

namespace stepscope {

struct AnnotationHit {
    QRectF rect;  // the label and the band
    int64_t id = 0;
};

class AnnotationPainter {
public:
    static constexpr int kLabelHeight = 18;
    static constexpr int kMaxLabelWidth = 420;

    // `area`: where the notes are drawn (bands span its height, labels start at its top); `xOf` maps
    // an absolute ns time to an x in the same coordinates. `hits` (optional) is cleared and filled.
    static void paint(QPainter &p, const std::vector<Annotation> &notes, const QRect &area,
                      const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits = nullptr);
    static QColor color(const Annotation &a);
};

} // namespace stepscope

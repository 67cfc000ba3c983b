#pragma once
// AnnotationPainter draws annotations over any area whose x axis is time: a translucent band with
// edge lines for a range note, a line with a flag for a point note, and the note's text in a label at
// the top of the area (labels that would overlap go on the next row). Stateless; TimelineView (through
// TimelineAnnotationOverlay) calls it from paintEvent, so widget grabs and exports carry the notes.
// It records where each label landed so a view can answer clicks on it.
// Its cost is bounded whatever the notes: a label shows the first line of its note, cut to
// kMaxLabelChars; labels use at most kMaxLabelRows rows and the rest go unlabelled; beyond
// kMaxBands notes in view the bands are drawn as one density strip (per pixel column, shaded by how
// many notes cover it) with a count, so 200 k notes cost what a few hundred do.

#include "models/store/annotation_store.h"

#include <QPainter>
#include <QRectF>

#include <functional>
#include <vector>

namespace stepscope {

struct AnnotationHit {
    QRectF rect;  // the label or the band
    int64_t id = 0;
    bool label = false;
};

class AnnotationPainter {
public:
    static constexpr int kLabelHeight = 18;
    static constexpr int kMaxLabelWidth = 420;  // or half the area, whichever is more
    static constexpr int kMaxLabelRows = 6;
    static constexpr int kMaxBands = 400;

    // `notes` in start order; `area`: where the notes are drawn (bands span its height, labels start
    // at its top); `xOf` maps an absolute ns time to an x in the same coordinates. `hits` (optional)
    // is cleared and filled.
    static void paint(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                      const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits = nullptr);
    static void paint(QPainter &p, const std::vector<Annotation> &notes, const QRect &area,
                      const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits = nullptr);
    static QColor color(const Annotation &a);
    // What a label, legend entry or list row shows of a note: its first line, bounded (display_text.h).
    static QString labelText(const Annotation &a);

private:
    static void paintBands(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                           const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits);
    static void paintDensity(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                             const std::function<double(int64_t)> &xOf);
    static void paintLabels(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                            const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits);
};

} // namespace stepscope

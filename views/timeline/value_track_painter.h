#pragma once
// ValueTrackPainter draws a counter or metric track of the timeline: a stepped area chart on a fixed
// scale (the series' whole range, 0..100 for percentages), one pixel column per bucket of samples,
// with a dark stroke spanning the column's min..max so a spike narrower than a pixel still shows.
// A metric's sample is drawn over the period before its time stamp (what utilization samples
// measure) and gaps (no sample for three periods) stay empty; a counter's value holds from its
// sample until the next. A capacity (GPU memory total) is a dashed line with its value.
// Called by TimelinePainter for each visible value track; stateless.

#include "models/qt/time_range_controller.h"
#include "models/timeline/timeline_types.h"

#include <QColor>
#include <QPainter>
#include <QRectF>

namespace stepscope {

class ValueTrackPainter {
public:
    // Paints `series` over `range` into `area` (x: the data columns, y: the track's row).
    static void paint(QPainter &p, const QRectF &area, const TimelineValueSeries &series, NsRange range, const QColor &color);
    // The label column of a value track: its name, then the scale, the sampling and the highest
    // value in view ("0 – 100 % · every 100 ms", "max 87.5 %").
    static void paintLabel(QPainter &p, const QRect &rect, const QString &name, const TimelineValueSeries &series,
                           NsRange range, const QColor &text, const QColor &muted);
    // The right-hand label: "max 97.0 %", the highest value drawn in `range` — every sample whose
    // drawn span (a metric's period before its stamp, a counter's hold until the next sample)
    // overlaps it, so it always matches the chart and the hover; "no samples" where none is drawn.
    static QString peakLabel(const TimelineValueSeries &series, NsRange range);
    // The indices [first, last) of the samples drawn over `range` (see peakLabel).
    static std::pair<int64_t, int64_t> samplesDrawn(const TimelineValueSeries &series, NsRange range);
    // A value in the series' unit: "87.5 %", "12.3 GiB", "0 %", and plain counts as "3.00 G", "0".
    static QString formatValue(double value, const QString &unit, double scaleMax);
    // The capacity line's label, "total 80 GiB"; empty when the series has none.
    static QString limitLabel(const TimelineValueSeries &series);
    // The colour of a value track: from its name, so the same counter has the same colour everywhere.
    static QColor colorFor(const QString &trackName);
    // The scale drawn: [low, high] with low <= 0 <= high where the data allows.
    static std::pair<double, double> scale(const TimelineValueSeries &series);
};

} // namespace stepscope

#include "views/timeline/value_track_painter.h"

#include "models/metrics/metric_lod.h"
#include "models/metrics/metric_units.h"
#include "models/colors/palette.h"

#include <QHash>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <optional>

namespace stepscope {

std::pair<double, double> ValueTrackPainter::scale(const TimelineValueSeries &series) {
    double low = std::min(0.0, series.min), high = std::max({0.0, series.max, series.limitOnScale ? series.limit : 0.0});
    if (series.unit == QLatin1String("%")) high = std::max(high, 100.0);
    if (high <= low) high = low + 1;
    return {low, high};
}

QString ValueTrackPainter::formatValue(double value, const QString &unit, double scaleMax) {
    if (!unit.isEmpty()) {
        const UnitScale scale = MetricUnits::scaleFor(unit, scaleMax);
        // Zero needs its unit too ("max 0" says nothing about what is zero).
        if (value == 0) return scale.suffix.isEmpty() ? QStringLiteral("0") : QStringLiteral("0") + QChar(0x2009) + scale.suffix;
        return MetricUnits::format(value, scale);
    }
    if (value == 0) return QStringLiteral("0");
    static const char *const prefixes[] = {"", " k", " M", " G", " T", " P"};
    int k = 0;
    double divisor = 1;
    while (k < 5 && std::fabs(scaleMax) >= divisor * 1000 * 0.95) { divisor *= 1000; ++k; }
    const double v = value / divisor, a = std::fabs(v);
    return QString::number(v, 'f', a >= 100 || (k == 0 && v == std::round(v)) ? 0 : a >= 10 ? 1 : 2) + QLatin1String(prefixes[k]);
}

std::pair<int64_t, int64_t> ValueTrackPainter::samplesDrawn(const TimelineValueSeries &series, NsRange range) {
    const MetricLod &lod = *series.lod;
    if (!range.valid() || lod.size() == 0) return {0, 0};
    if (series.periodNs > 0) {
        // A metric sample stamped T is drawn over (T - period, T]: it overlaps [start, end) when
        // start < T < end + period.
        return {lod.lowerIndex(range.start + 1), lod.lowerIndex(range.end + series.periodNs)};
    }
    // A counter's sample holds from its stamp until the next: the one at or before the start too.
    const auto held = lod.indexAtOrBefore(range.start);
    return {held ? *held : lod.lowerIndex(range.start), lod.lowerIndex(range.end)};
}

QString ValueTrackPainter::peakLabel(const TimelineValueSeries &series, NsRange range) {
    if (!series.lod) return QStringLiteral("no samples");
    const auto [low, high] = scale(series);
    const double scaleMax = std::max(std::fabs(low), std::fabs(high));
    const auto [i, j] = samplesDrawn(series, range);
    if (j <= i) return QStringLiteral("no samples");
    const MetricStats drawn = series.lod->statsOfIndices(i, j);
    // One sample over the whole view (zoomed inside a period): its value, not a "max" of one.
    if (drawn.count == 1) return formatValue(drawn.max, series.unit, scaleMax);
    return QStringLiteral("max %1").arg(formatValue(drawn.max, series.unit, scaleMax));
}

void ValueTrackPainter::paintLabel(QPainter &p, const QRect &rect, const QString &name, const TimelineValueSeries &series,
                                   NsRange range, const QColor &text, const QColor &muted) {
    const QFontMetrics fm(p.font());
    const int line = 20;
    p.setPen(text);
    p.drawText(QRect(rect.left(), rect.top() + 2, rect.width(), line), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(name, Qt::ElideMiddle, rect.width()));
    const auto [low, high] = scale(series);
    const double scaleMax = std::max(std::fabs(low), std::fabs(high));
    const QString peak = peakLabel(series, range);
    const int peakW = fm.horizontalAdvance(peak) + 8;
    // "5 ms" rather than "every 5 ms": the label column is narrow.
    const QString sampling = series.periodNs > 0 ? MetricUnits::period(series.periodNs).remove(QStringLiteral("every ")) : QStringLiteral("counter");
    // "0–100 %": the upper end carries the unit for both (the column is narrow).
    const QString range0 = QStringLiteral("%1–%2 · %3").arg(low == 0 ? QStringLiteral("0") : formatValue(low, series.unit, scaleMax),
                                                             formatValue(high, series.unit, scaleMax), sampling);
    const QRect second(rect.left(), rect.top() + line, rect.width(), line);
    p.setPen(muted);
    p.drawText(second.adjusted(0, 0, -peakW, 0), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(range0, Qt::ElideRight, second.width() - peakW));
    p.drawText(second, Qt::AlignVCenter | Qt::AlignRight, peak);
}

QString ValueTrackPainter::limitLabel(const TimelineValueSeries &series) {
    if (series.limit <= 0) return {};
    const auto [low, high] = scale(series);
    return QStringLiteral("total %1").arg(formatValue(series.limit, series.unit, std::max(std::fabs(low), std::fabs(high))));
}

QColor ValueTrackPainter::colorFor(const QString &trackName) {
    return nameColorForText(trackName);
}

void ValueTrackPainter::paint(QPainter &p, const QRectF &area, const TimelineValueSeries &series, NsRange range,
                              const QColor &color) {
    if (!series.lod || series.lod->size() == 0 || !range.valid()) return;
    const MetricLod &lod = *series.lod;
    const int width = std::max(1, int(std::ceil(area.width())));
    const auto bounds = scale(series);
    const double low = bounds.first, high = bounds.second;  // plain names: lambdas capture them (clang 14)
    const double top = area.top() + 3, bottom = area.bottom() - 2;
    auto y = [&](double v) { return bottom - (v - low) / (high - low) * (bottom - top); };
    const double baseline = y(std::clamp(0.0, low, high));

    // A metric sample describes the period before its time stamp (nvidia-smi: "% of time in the
    // last sample period"), so it is drawn over that period: look one period ahead. A counter's
    // value holds from its time stamp on.
    const int64_t ahead = series.periodNs;
    // The value carried into the first column: the last sample before it.
    std::optional<float> carry;
    int64_t carryTime = 0;
    if (const auto i = lod.indexAtOrBefore(range.start + ahead - 1)) {
        carry = lod.values()[size_t(*i)];
        carryTime = lod.times()[size_t(*i)] - ahead;
    }
    const double nsPerColumn = double(range.duration()) / width;
    const std::vector<MetricBucket> buckets = lod.buckets(range.start + ahead, range.end + ahead, width);

    QColor fill = color;
    fill.setAlpha(150);
    const QColor ink = color.darker(190);
    std::vector<QPolygonF> areas(1);
    std::vector<QLineF> spans;
    auto close = [&] {
        QPolygonF &a = areas.back();
        if (a.isEmpty()) return;
        a << QPointF(a.back().x(), baseline) << QPointF(a.front().x(), baseline);
        areas.emplace_back();
    };
    for (int k = 0; k < width; ++k) {
        const double x0 = area.left() + k, x1 = x0 + 1;
        const int64_t columnStart = range.start + int64_t(k * nsPerColumn);
        const MetricBucket &b = buckets[size_t(k)];
        double v;
        if (b.count > 0) {
            v = b.max;
            if (b.max > b.min) spans.emplace_back(QPointF(x0 + 0.5, y(b.min)), QPointF(x0 + 0.5, y(b.max)));
            carry = b.last;
            carryTime = range.start + int64_t((k + 1) * nsPerColumn);
        } else if (carry && (series.periodNs == 0 || columnStart - carryTime <= 3 * series.periodNs)) {
            v = *carry;
        } else {
            close();  // a gap: no sample for three periods
            carry.reset();
            continue;
        }
        const double yv = std::clamp(y(v), top, bottom);
        areas.back() << QPointF(x0, yv) << QPointF(x1, yv);
    }
    close();

    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const QPolygonF &a : areas) {
        if (a.size() < 4) continue;
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(a);
        p.setPen(QPen(ink, 1));
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(a.constData(), int(a.size()) - 2);  // the outline, without the baseline
    }
    p.setPen(QPen(ink, 1));
    if (!spans.empty()) p.drawLines(spans.data(), int(spans.size()));
    p.fillRect(QRectF(area.left(), baseline, area.width(), 1), QColor(0, 0, 0, 40));
    if (series.limit > 0) {  // the capacity: a dashed line, named at its right end, below the line
        // Off the scale (allocator series): only the name, in the top right corner.
        const bool onScale = series.limitOnScale || series.limit <= series.max;
        const double yl = onScale ? y(series.limit) : area.top();
        p.setPen(QPen(ink, 1, Qt::DashLine));
        if (onScale) p.drawLine(QPointF(area.left(), yl), QPointF(area.right(), yl));
        const QString label = limitLabel(series);
        const QFontMetrics fm(p.font());
        const QRectF box(area.right() - fm.horizontalAdvance(label) - 10, yl + 1, fm.horizontalAdvance(label) + 6, fm.height());
        p.fillRect(box, QColor(255, 255, 255, 200));
        p.setPen(ink);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

} // namespace stepscope

#include "views/timeline/timeline_painter.h"

#include "models/text/display_text.h"
#include "models/colors/palette.h"
#include "models/text/time_format.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/value_track_painter.h"

#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace stepscope {

namespace {
const QColor kBackground(255, 255, 255);
const QColor kLabelBackground(245, 246, 248);
const QColor kRunHeader(226, 231, 239);
const QColor kGroupHeader(238, 241, 245);
const QColor kSeparator(222, 225, 230);
const QColor kGrid(236, 238, 242);
const QColor kText(32, 35, 40);
const QColor kMutedText(110, 116, 126);
const QColor kSelection(66, 133, 244);
const QColor kStepLine(150, 170, 205);
const QColor kAligned(214, 118, 26);        // the common start of an aligned step
const QColor kHighlightedRun(255, 226, 178);  // the run brought into view from the Job dock
const QColor kRankRule(150, 158, 172);        // compact aligned ranks: the line between two ranks

struct XMap {
    double left, scale;
    int64_t start;
    double x(int64_t t) const { return left + double(t - start) * scale; }
};
XMap xmap(const TimelineFrame &f) {
    const QRect d = TimelinePainter::dataRect(f.size, f.labelWidth);
    return {double(d.left()), double(d.width()) / double(std::max<int64_t>(1, f.range.duration())), f.range.start};
}
int screenY(const TimelineFrame &f, int contentY) { return TimelinePainter::kHeaderHeight + contentY - f.scrollY; }
// A value track's samples are kept as recorded: read them over the range its run is shifted from.
NsRange recordedRange(const TimelineFrame &f, int track) {
    const int64_t offset = f.model->tracks()[size_t(track)].offsetNs;
    return {f.range.start - offset, f.range.end - offset};
}
// A run header's title; while ranks are aligned it names the rank and how far the run was moved.
QString runTitle(const TimelineFrame &f, int group) {
    const TimelineGroup &g = f.model->groups()[size_t(group)];
    QString title = displayText(g.title);
    if (!f.alignedStep) return title;
    if (g.rank && !title.contains(QStringLiteral("rank"), Qt::CaseInsensitive))
        title = QStringLiteral("rank %1 · %2").arg(*g.rank).arg(title);
    const int64_t offset = f.model->runOffset(g.runId);
    if (offset != 0)
        title += QStringLiteral(" · %1%2").arg(offset > 0 ? QStringLiteral("+") : QStringLiteral("−")).arg(formatTime(std::llabs(offset)));
    return title;
}
QFont sized(QFont font, double pt, bool bold = false) {
    font.setPointSizeF(pt);
    font.setBold(bold);
    return font;
}
} // namespace

void TimelinePainter::paint(QPainter &p, const TimelineFrame &f, std::vector<TimelineHit> &hits, std::vector<TimelineFlow> *arrows) {
    hits.clear();
    std::vector<TimelineFlow> drawn;
    p.fillRect(QRect(QPoint(0, 0), f.size), kBackground);
    if (!f.model || !f.layout || !f.range.valid() || f.size.width() <= f.labelWidth) return;
    p.setFont(sized(p.font(), 9));
    f.model->beginFrame();
    paintTracks(p, f, hits);
    f.model->endFrame();
    // Arrows between visible pairs only where they can be told apart: few exact slices on screen
    // (flows are read per exact window). The selected slice's arrows at any zoom.
    const auto exact = std::count_if(hits.begin(), hits.end(), [](const TimelineHit &h) { return h.item.sliceId >= 0; });
    if (f.showFlows) paintFlows(p, f, exact * 6 <= dataRect(f.size, f.labelWidth).width(), drawn);
    if (arrows) *arrows = std::move(drawn);
    paintSearchHits(p, f);
    paintCriticalPath(p, f);
    paintLabels(p, f);
    paintRuler(p, f);
    paintSteps(p, f);
}

void TimelinePainter::paintTracks(QPainter &p, const TimelineFrame &f, std::vector<TimelineHit> &hits) {
    const QRect data = dataRect(f.size, f.labelWidth);
    p.save();
    p.setClipRect(data);
    const XMap m = xmap(f);
    // Grid lines from the ruler's major ticks, step boundaries on top of them.
    for (const auto &tick : TimeRuler::ticks(f.origin, f.range.start, f.range.end, data.width()))
        if (tick.major) p.fillRect(QRectF(data.left() + tick.x, data.top(), 1, data.height()), kGrid);
    if (f.selection.valid()) {
        const double x0 = m.x(f.selection.start), x1 = m.x(f.selection.end);
        p.fillRect(QRectF(x0, data.top(), std::max(1.0, x1 - x0), data.height()), QColor(66, 133, 244, 28));
    }
    const double nsPerPx = double(f.range.duration()) / std::max(1, data.width());
    std::vector<TimelineItem> items;
    for (const TimelineRow &row : f.layout->rows()) {
        const int y = screenY(f, row.y);
        if (y + row.height < data.top() || y > data.bottom()) continue;
        if (row.kind == TimelineRow::Kind::RunHeader) {
            p.fillRect(QRect(data.left(), y, data.width(), row.height), row.index == f.highlightedRunGroup ? kHighlightedRun : kRunHeader);
        } else if (row.kind == TimelineRow::Kind::GroupHeader) {
            p.fillRect(QRect(data.left(), y, data.width(), row.height), kGroupHeader);
        } else if (const TimelineValueSeries *values = f.model->valueSeries(row.index)) {
            const QString &name = f.model->tracks()[size_t(row.index)].name;
            ValueTrackPainter::paint(p, QRectF(data.left(), y, data.width(), row.height - 1), *values,
                                     recordedRange(f, row.index), ValueTrackPainter::colorFor(name));
        } else {
            items.clear();
            f.model->fetch(row.index, f.range, nsPerPx, items);
            paintItems(p, f, row, items, hits);
        }
        p.fillRect(QRect(data.left(), y + row.height - 1, data.width(), 1), kSeparator);
        if (row.runTitle) p.fillRect(QRect(data.left(), y, data.width(), 1), kRankRule);  // compact: between ranks
    }
    // Step boundaries through the tracks, while they are far enough apart to be told apart (the
    // step band above always shows every step). Dotted by filling short runs: stroking a dashed
    // pen per line costs more than the whole frame when thousands of steps are in view.
    const auto &steps = f.model->steps();
    const auto first = std::lower_bound(steps.begin(), steps.end(), f.range.start,
                                        [](const TimelineStep &s, int64_t t) { return s.startNs < t; });
    const auto last = std::upper_bound(first, steps.end(), f.range.end,
                                       [](int64_t t, const TimelineStep &s) { return t < s.startNs; });
    if ((last - first) * 6 <= data.width()) {
        QColor dot = kStepLine;
        dot.setAlpha(170);
        for (auto s = first; s != last; ++s) {
            const double x = std::round(m.x(s->startNs));
            for (int y = data.top(); y < data.bottom(); y += 6) p.fillRect(QRectF(x, y, 1, 3), dot);
        }
    }
    if (f.alignedStep) {
        const double x = std::round(m.x(f.origin));
        p.fillRect(QRectF(x - 1, data.top(), 2, data.height()), kAligned);
    }
    if (f.selection.valid()) {
        p.setPen(QPen(kSelection, 1));
        for (int64_t t : {f.selection.start, f.selection.end}) {
            const double x = std::round(m.x(t)) + 0.5;
            p.drawLine(QPointF(x, data.top()), QPointF(x, data.bottom()));
        }
    }
    p.restore();
}

void TimelinePainter::paintItems(QPainter &p, const TimelineFrame &f, const TimelineRow &row,
                                 const std::vector<TimelineItem> &items, std::vector<TimelineHit> &hits) {
    const QRect data = dataRect(f.size, f.labelWidth);
    const XMap m = xmap(f);
    const int lane = row.laneHeight;
    // A compact row draws its first lanes only, its names a size smaller to fit them.
    const QFont font = p.font();
    if (row.compact()) p.setFont(sized(font, 7.5));
    const QFontMetrics fm(p.font());
    const auto skipped = [&row](const TimelineItem &it) { return row.compact() && it.depth >= uint32_t(row.lanes); };
    const double left = data.left() - 2.0, right = data.right() + 2.0;
    auto rectOf = [&](const TimelineItem &it) {
        const double x0 = std::max(left, m.x(it.startNs)), x1 = std::min(right, m.x(it.endNs()));
        const int y = screenY(f, TimelineLayout::laneY(row, it.depth));
        return QRectF(x0, y + 1, std::max(1.0, x1 - x0), lane - 2);
    };
    // Density blocks first: a light wash of the dominant colour, hatched, so they never pass for a slice.
    for (const TimelineItem &it : items) {
        if (!it.block || skipped(it)) continue;
        const QRectF r = rectOf(it);
        QColor wash = f.model->nameColorOf(it.nameId);
        wash.setAlpha(120);
        p.fillRect(r, wash);
        p.fillRect(r, QBrush(f.model->nameColorOf(it.nameId).darker(170), Qt::BDiagPattern));
        if (r.width() > 70) {
            const QString text = QStringLiteral("%1 events").arg(it.count);
            const QRectF tr = r.adjusted(4, 0, -4, 0);
            p.fillRect(QRectF(tr.left(), r.top() + 2, std::min(tr.width(), double(fm.horizontalAdvance(text)) + 4), r.height() - 4),
                       QColor(255, 255, 255, 210));
            p.setPen(kMutedText);
            p.drawText(tr.adjusted(2, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, int(tr.width())));
        }
        hits.push_back({r, row.index, it});
    }
    for (const TimelineItem &it : items) {
        if (it.block || skipped(it)) continue;
        QRectF r = rectOf(it);
        if (r.width() > 3) r.setRight(r.right() - 1);  // a hairline gap between neighbours
        const QColor fill = f.model->nameColorOf(it.nameId);
        p.fillRect(r, fill);
        if (r.width() > 28) {
            p.setPen(textColorOn(fill));
            const QString name = displayText(f.model->nameText(it.nameId));
            p.drawText(r.adjusted(4, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(name, Qt::ElideRight, int(r.width()) - 7));
        }
        hits.push_back({r, row.index, it});
        const bool selected = row.index == f.selectedTrack &&
                              ((f.selectedSliceId >= 0 && it.sliceId == f.selectedSliceId) ||
                               (it.startNs == f.selectedItem.startNs && it.depth == f.selectedItem.depth &&
                                it.durNs == f.selectedItem.durNs));
        if (selected) {
            p.setPen(QPen(QColor(20, 20, 20), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }
    p.setFont(font);
}

void TimelinePainter::paintFlows(QPainter &p, const TimelineFrame &f, bool visiblePairs, std::vector<TimelineFlow> &drawn) {
    const QRect data = dataRect(f.size, f.labelWidth);
    std::vector<TimelineFlow> flows;
    if (visiblePairs) {
        std::vector<int> visible;
        for (const TimelineRow &row : f.layout->rows())
            if (row.kind == TimelineRow::Kind::Track) visible.push_back(row.index);
        flows = f.model->flows(f.range, visible);
        // Arrows closer than ~10 px apart are a smear, not information; and a bounded count keeps
        // the frame cheap. Then only the selected slice's.
        if (int(flows.size()) > kMaxFlowArrows || int(flows.size()) * 10 > data.width()) flows.clear();
    }
    if (f.selectedFlows)
        for (const TimelineFlow &fl : *f.selectedFlows)
            if (std::none_of(flows.begin(), flows.end(), [&](const TimelineFlow &o) {
                    return o.fromSliceId == fl.fromSliceId && o.toSliceId == fl.toSliceId; }))
                flows.push_back(fl);
    if (flows.empty()) return;
    const XMap m = xmap(f);
    p.save();
    p.setClipRect(data);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor ink(70, 80, 96, 200), selectedInk(20, 20, 20, 230);
    const double left = data.left() - 1.0, right = data.right() + 1.0;
    for (const TimelineFlow &fl : flows) {
        const TimelineRow *a = f.layout->trackRow(fl.fromTrack);
        const TimelineRow *b = f.layout->trackRow(fl.toTrack);
        if (!a || !b) continue;  // an end on a hidden or collapsed track
        QPointF from(m.x(fl.fromNs), screenY(f, TimelineLayout::laneY(*a, fl.fromDepth)) + a->laneHeight / 2.0);
        QPointF to(m.x(fl.toNs), screenY(f, TimelineLayout::laneY(*b, fl.toDepth)) + b->laneHeight / 2.0);
        if ((from.x() < left && to.x() < left) || (from.x() > right && to.x() > right)) continue;  // not in view
        // A launch 100 ms before its kernel is far off screen: an arrow towards it would be a flat
        // line along the lane. The off-screen end is pinned to the edge, at its own lane, dashed.
        // Only the selection's arrows do that: pinned arrows of every pair in view would be a fan.
        const bool fromOut = from.x() < left || from.x() > right, toOut = to.x() < left || to.x() > right;
        const bool selected = f.selectedSliceId >= 0 && (fl.fromSliceId == f.selectedSliceId || fl.toSliceId == f.selectedSliceId);
        if ((fromOut || toOut) && !selected) continue;
        from.setX(std::clamp(from.x(), left, right));
        to.setX(std::clamp(to.x(), left, right));
        const QColor c = selected ? selectedInk : ink;
        QPen pen(c, selected ? 1.6 : 1.2);
        if (fromOut || toOut) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(from);
        const double dx = std::clamp(std::abs(to.x() - from.x()) / 2, 12.0, 60.0);
        path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
        p.drawPath(path);
        p.setPen(QPen(c, 1));
        p.setBrush(c);
        p.drawEllipse(from, 2.0, 2.0);  // where it leaves
        if (!toOut) {
            // Arrow head along the last tangent (horizontal into the target).
            const double s = 5;
            QPolygonF head;
            head << to << to + QPointF(-s * 1.4, -s * 0.8) << to + QPointF(-s * 1.4, s * 0.8);
            p.drawPolygon(head);
        }
        drawn.push_back(fl);
    }
    p.restore();
}

void TimelinePainter::paintSearchHits(QPainter &p, const TimelineFrame &f) {
    if (!f.searchHits || f.searchHits->empty()) return;
    const auto &hits = *f.searchHits;
    const QRect data = dataRect(f.size, f.labelWidth);
    const XMap m = xmap(f);
    // Hits are by start: from the first that can still reach into the view (the longest hit back).
    auto it = std::lower_bound(hits.begin(), hits.end(), f.range.start - f.longestSearchHit,
                               [](const TimelineSearchModel::Hit &h, int64_t t) { return h.startNs < t; });
    // An outline per hit, at least 3 px wide so a hit inside a merged block still shows; bounded,
    // so a common name over a zoomed-out run costs a fixed amount per frame.
    constexpr int kMaxOutlined = 4000;
    QVector<QRectF> rects;
    const auto &tracks = f.model->tracks();
    for (; it != hits.end() && it->startNs <= f.range.end && rects.size() < kMaxOutlined; ++it) {
        if (it->startNs + it->durNs < f.range.start || it->track < 0 || it->track >= int(tracks.size())) continue;
        const TimelineRow *row = f.layout->trackRow(it->track);
        if (!row) continue;  // hidden or collapsed
        const uint32_t depth = std::min<uint32_t>(it->depth, uint32_t(std::max(1, tracks[size_t(it->track)].depthCount) - 1));
        const double y = screenY(f, TimelineLayout::laneY(*row, depth));
        if (y + row->laneHeight < data.top() || y > data.bottom()) continue;
        double x0 = std::max(data.left() - 2.0, m.x(it->startNs)), x1 = std::min(data.right() + 2.0, m.x(it->startNs + it->durNs));
        if (x1 - x0 < 3) {
            const double c = (x0 + x1) / 2;
            x0 = c - 1.5;
            x1 = c + 1.5;
        }
        rects.push_back(QRectF(x0 + 0.5, y + 0.5, x1 - x0 - 1, row->laneHeight - 1));
    }
    if (rects.isEmpty()) return;
    p.save();
    p.setClipRect(data);
    p.setPen(QPen(QColor::fromRgb(kSearchHitRgb), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRects(rects);
    p.restore();
}

void TimelinePainter::paintCriticalPath(QPainter &p, const TimelineFrame &f) {
    if (!f.criticalPath || f.criticalPath->empty()) return;
    const QRect data = dataRect(f.size, f.labelWidth);
    const XMap m = xmap(f);
    constexpr int kMaxBands = 8000;  // bounded per frame, like the search outlines
    constexpr double kBand = 4;
    int drawn = 0;
    p.save();
    p.setClipRect(data);
    const auto &tracks = f.model->tracks();
    for (const CriticalPathMark &mark : *f.criticalPath) {
        if (mark.end < f.range.start || mark.start > f.range.end) continue;
        if (mark.track < 0 || mark.track >= int(tracks.size()) || drawn >= kMaxBands) continue;
        const TimelineRow *row = f.layout->trackRow(mark.track);
        if (!row) continue;  // hidden or collapsed
        const double bottom = screenY(f, row->y + row->height) - 1;
        if (bottom < data.top() || bottom - row->height > data.bottom()) continue;
        double x0 = std::max(data.left() - 2.0, m.x(mark.start)), x1 = std::min(data.right() + 2.0, m.x(mark.end));
        if (x1 - x0 < 2) x1 = x0 + 2;
        const QColor c = QColor::fromRgb(mark.rgb);
        p.fillRect(QRectF(x0, screenY(f, row->y), x1 - x0, row->height), QColor(c.red(), c.green(), c.blue(), 28));
        p.fillRect(QRectF(x0, bottom - kBand, x1 - x0, kBand), c);
        p.fillRect(QRectF(x0, bottom - kBand - 1, x1 - x0, 1), QColor(20, 20, 20));
        ++drawn;
    }
    p.restore();
}

void TimelinePainter::paintLabels(QPainter &p, const TimelineFrame &f) {
    const QRect col(0, kHeaderHeight, f.labelWidth, f.size.height() - kHeaderHeight);
    p.save();
    p.setClipRect(col);
    p.fillRect(col, kLabelBackground);
    const QFont base = p.font();
    const QFont bold = sized(base, 9.5, true);
    const QFont semi = sized(base, 9, true);
    const auto &groups = f.model->groups();
    const auto &tracks = f.model->tracks();
    for (const TimelineRow &row : f.layout->rows()) {
        const int y = screenY(f, row.y);
        if (y + row.height < col.top() || y > col.bottom()) continue;
        const QRect r(0, y, f.labelWidth, row.height);
        if (row.compact()) {
            paintCompactLabel(p, f, row, y);
        } else if (row.kind == TimelineRow::Kind::Track) {
            const TimelineTrack &t = tracks[size_t(row.index)];
            p.setFont(base);
            if (t.isValueTrack()) {
                ValueTrackPainter::paintLabel(p, QRect(28, y, f.labelWidth - 34, row.height), displayText(t.name),
                                              *f.model->valueSeries(row.index), recordedRange(f, row.index), kText, kMutedText);
            } else {
                const QFontMetrics fm(base);
                const QString count = QStringLiteral("%L1").arg(t.sliceCount);
                const int countW = fm.horizontalAdvance(count) + 8;
                const int lineH = TimelineLayout::kLaneHeight + 2 * TimelineLayout::kTrackPadding;
                p.setPen(kText);
                p.drawText(QRect(28, y, f.labelWidth - 34 - countW, lineH), Qt::AlignVCenter | Qt::AlignLeft,
                           fm.elidedText(displayText(t.name), Qt::ElideMiddle, f.labelWidth - 34 - countW));
                p.setPen(kMutedText);
                p.drawText(QRect(f.labelWidth - countW - 6, y, countW, lineH), Qt::AlignVCenter | Qt::AlignRight, count);
            }
        } else {
            const bool run = row.kind == TimelineRow::Kind::RunHeader;
            p.fillRect(r, run && row.index == f.highlightedRunGroup ? kHighlightedRun : run ? kRunHeader : kGroupHeader);
            p.setFont(run ? bold : semi);
            p.setPen(kText);
            const int indent = run ? 6 : 16;
            const QString arrow = f.layout->isCollapsed(row.index) ? QStringLiteral("▸") : QStringLiteral("▾");
            p.drawText(QRect(indent, y, 14, row.height), Qt::AlignVCenter | Qt::AlignLeft, arrow);
            const QString title = run ? runTitle(f, row.index) : displayText(groups[size_t(row.index)].title);
            p.drawText(QRect(indent + 14, y, f.labelWidth - indent - 20, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       QFontMetrics(p.font()).elidedText(title, Qt::ElideMiddle, f.labelWidth - indent - 20));
        }
        p.fillRect(QRect(0, y + row.height - 1, f.labelWidth, 1), kSeparator);
    }
    p.setFont(base);
    p.restore();
    p.fillRect(QRect(f.labelWidth - 1, kHeaderHeight, 1, f.size.height()), QColor(205, 209, 215));
}

void TimelinePainter::paintCompactLabel(QPainter &p, const TimelineFrame &f, const TimelineRow &row, int y) {
    // Compact rows have no run header: the run's first row names it (bold, in the header's colour,
    // with a rule above that separates the ranks), the track name on the line below or beside it.
    const TimelineTrack &t = f.model->tracks()[size_t(row.index)];
    const int run = f.model->groups()[size_t(t.group)].parent;
    const QFont base = p.font();
    const int width = f.labelWidth - 12;
    const int line = row.laneHeight;
    const int top = y + row.padding;
    if (row.runTitle) {
        p.fillRect(QRect(0, y, f.labelWidth, row.height), run == f.highlightedRunGroup ? kHighlightedRun : kRunHeader);
        p.fillRect(QRect(0, y, f.labelWidth, 1), kRankRule);
        p.setFont(sized(base, 8, true));
        p.setPen(kText);
        p.drawText(QRect(6, top, width, line), Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetrics(p.font()).elidedText(runTitle(f, run), Qt::ElideMiddle, width));
    }
    p.setFont(sized(base, 7.5));
    p.setPen(kMutedText);
    const bool below = !row.runTitle || row.lanes >= 2;
    const QRect nameRect = row.runTitle ? QRect(14, top + line, width - 8, line) : QRect(14, top, width - 8, line);
    if (below)
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft, QFontMetrics(p.font()).elidedText(displayText(t.name), Qt::ElideMiddle, nameRect.width()));
    p.setFont(base);
}

void TimelinePainter::paintRuler(QPainter &p, const TimelineFrame &f) {
    const QRect bar(0, 0, f.size.width(), kRulerHeight);
    p.fillRect(bar, QColor(250, 251, 252));
    const QRect data = dataRect(f.size, f.labelWidth);
    p.setPen(kMutedText);
    const QFontMetrics fm(p.font());
    // Corner: the visible span; while ranks are aligned, what the ticks count from (the span moves
    // to the step band's corner).
    const QString corner = f.alignedStep ? QStringLiteral("relative to step %1 start").arg(*f.alignedStep)
                                         : QStringLiteral("span %1").arg(formatTime(f.range.duration()));
    if (f.alignedStep) p.setPen(kAligned.darker(125));
    p.drawText(QRect(8, 0, f.labelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(corner, Qt::ElideRight, f.labelWidth - 12));
    p.setPen(kMutedText);
    p.save();
    p.setClipRect(QRect(data.left(), 0, data.width(), kRulerHeight));
    for (const auto &tick : TimeRuler::ticks(f.origin, f.range.start, f.range.end, data.width())) {
        const double x = data.left() + tick.x;
        p.fillRect(QRectF(x, tick.major ? kRulerHeight - 8 : kRulerHeight - 4, 1, tick.major ? 8 : 4), QColor(150, 156, 166));
        if (tick.major) p.drawText(QPointF(x + 3, kRulerHeight - 8), tick.label);
    }
    p.restore();
    p.fillRect(QRect(0, kRulerHeight - 1, f.size.width(), 1), QColor(205, 209, 215));
}

std::vector<std::pair<size_t, QString>> TimelinePainter::stepLabels(const TimelineFrame &f, const QFontMetrics &fm) {
    std::vector<std::pair<size_t, QString>> out;
    const auto &steps = f.model->steps();
    if (steps.empty() || !f.range.valid()) return out;
    const QRect data = dataRect(f.size, f.labelWidth);
    const XMap m = xmap(f);
    // Steps are sorted by start: begin with the first that can still reach into the view.
    int64_t longest = 0;
    for (const TimelineStep &s : steps) longest = std::max(longest, s.durNs);
    size_t i = size_t(std::lower_bound(steps.begin(), steps.end(), f.range.start - longest,
                                       [](const TimelineStep &s, int64_t t) { return s.startNs < t; }) - steps.begin());
    for (; i < steps.size() && steps[i].startNs <= f.range.end; ++i)
        if (steps[i].startNs + steps[i].durNs >= f.range.start) out.push_back({i, QString()});
    // Widths from the digit count (tabular digits): shaping text for thousands of steps is slow.
    const int digitWidth = fm.horizontalAdvance(QLatin1Char('0')), prefixWidth = fm.horizontalAdvance(QStringLiteral("step "));
    const auto digits = [](int64_t step) { return int(QString::number(step).size()); };
    // A mix of "step 11" and "12" reads as two kinds of thing. The room is a step's full width (not
    // its clipped part), so panning does not flip the format.
    bool wordy = true;
    for (const auto &[k, text] : out)
        if (prefixWidth + digits(steps[k].step) * digitWidth + 8 >= double(steps[k].durNs) * m.scale) { wordy = false; break; }
    for (auto &[k, text] : out) {
        const TimelineStep &s = steps[k];
        const double cx0 = std::max(m.x(s.startNs), double(data.left()));
        const double cx1 = std::min(m.x(s.startNs + s.durNs), double(data.right()));
        if ((wordy ? prefixWidth : 0) + digits(s.step) * digitWidth + 4 < cx1 - cx0 - 1)
            text = wordy ? QStringLiteral("step %1").arg(s.step) : QString::number(s.step);
    }
    return out;
}

void TimelinePainter::paintSteps(QPainter &p, const TimelineFrame &f) {
    const QRect band(0, kRulerHeight, f.size.width(), kStepBandHeight);
    p.fillRect(band, QColor(250, 251, 252));
    p.setPen(kMutedText);
    const QString title = f.alignedStep ? QStringLiteral("Steps · span %1").arg(formatTime(f.range.duration())) : QStringLiteral("Steps");
    p.drawText(QRect(8, band.top(), f.labelWidth - 12, band.height()), Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(p.font()).elidedText(title, Qt::ElideRight, f.labelWidth - 12));
    const QRect data = dataRect(f.size, f.labelWidth);
    const XMap m = xmap(f);
    p.save();
    p.setClipRect(QRect(data.left(), band.top(), data.width(), band.height()));
    const auto &steps = f.model->steps();
    for (const auto &[i, text] : stepLabels(f, QFontMetrics(p.font()))) {
        const TimelineStep &s = steps[i];
        const double x0 = m.x(s.startNs), x1 = m.x(s.startNs + s.durNs);
        const double cx0 = std::max(x0, double(data.left())), cx1 = std::min(x1, double(data.right()));
        const QRectF r(cx0, band.top() + 2, std::max(1.0, cx1 - cx0 - 1), band.height() - 4);
        const bool hot = int(i) == f.highlightedStep;
        p.fillRect(r, hot ? QColor(196, 214, 242) : (s.step % 2 ? QColor(226, 234, 246) : QColor(236, 241, 249)));
        p.fillRect(QRectF(x0, band.top(), 1, band.height()), kStepLine);
        if (!text.isEmpty()) {
            p.setPen(kText);
            p.drawText(r, Qt::AlignCenter, text);
        }
    }
    p.restore();
    p.fillRect(QRect(0, band.bottom(), f.size.width(), 1), QColor(205, 209, 215));
}

} // namespace stepscope

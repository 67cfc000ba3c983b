#include "views/annotations/annotation_painter.h"

#include "models/text/display_text.h"

#include <QObject>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

namespace stepscope {

namespace {
const QColor kDefault(0xf5, 0xa6, 0x23);
// Labels measured per paint at most: placing one needs its width, and notes that find no free row
// near the right edge would otherwise each be measured in vain.
constexpr int kMaxLabelMeasures = 1000;

QColor parsed(const std::string &color) {
    QColor c(QString::fromStdString(color));
    return c.isValid() ? c : kDefault;
}
} // namespace

QColor AnnotationPainter::color(const Annotation &a) { return parsed(a.color); }

QString AnnotationPainter::labelText(const Annotation &a) { return stepscope::labelText(a.text); }

void AnnotationPainter::paint(QPainter &p, const std::vector<Annotation> &notes, const QRect &area,
                              const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits) {
    std::vector<const Annotation *> ptrs;
    ptrs.reserve(notes.size());
    for (const Annotation &a : notes) ptrs.push_back(&a);
    paint(p, ptrs, area, xOf, hits);
}

void AnnotationPainter::paint(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                              const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits) {
    if (hits) hits->clear();
    if (notes.empty() || area.width() <= 0) return;
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, true);
    if (notes.size() > size_t(kMaxBands)) paintDensity(p, notes, area, xOf);
    else paintBands(p, notes, area, xOf, hits);
    paintLabels(p, notes, area, xOf, hits);
    p.restore();
}

void AnnotationPainter::paintBands(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                                   const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits) {
    for (const Annotation *a : notes) {
        const QColor c = color(*a);
        double x0 = xOf(a->startNs), x1 = xOf(std::max(a->startNs, a->endNs));
        if (x1 < area.left() - 1 || x0 > area.right() + 1) continue;
        x0 = std::max(x0, double(area.left()) - 2);
        x1 = std::min(x1, double(area.right()) + 2);
        if (a->isPoint() || x1 - x0 < 2) {
            p.setPen(QPen(c, 2));
            p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
        } else {
            QColor fill = c;
            fill.setAlpha(x1 - x0 >= 0.9 * area.width() ? 14 : 40);  // a note over everything only tints
            p.fillRect(QRectF(x0, area.top(), x1 - x0, area.height()), fill);
            p.setPen(QPen(c, 1.5));
            p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
            p.drawLine(QPointF(x1, area.top()), QPointF(x1, area.bottom()));
        }
        if (hits) hits->push_back({QRectF(x0 - 2, area.top(), std::max(4.0, x1 - x0 + 4), area.height()), a->id, false});
    }
}

void AnnotationPainter::paintDensity(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                                     const std::function<double(int64_t)> &xOf) {
    // How many notes cover each pixel column (a difference array: one pass over the notes, one over
    // the columns), shaded in the most common note colour; a strip along the top marks every column
    // with a note, and a count says how many there are.
    const int width = area.width();
    std::vector<int> diff(size_t(width) + 1, 0);
    std::unordered_map<std::string_view, int> colours;
    size_t shown = 0;
    for (const Annotation *a : notes) {
        const double x0 = xOf(a->startNs) - area.left(), x1 = xOf(std::max(a->startNs, a->endNs)) - area.left();
        if (x1 < -1 || x0 > width) continue;
        const int c0 = std::clamp(int(std::floor(x0)), 0, width - 1);
        const int c1 = std::clamp(int(std::ceil(x1)), c0 + 1, width);
        ++diff[size_t(c0)];
        --diff[size_t(c1)];
        ++colours[a->color];
        ++shown;
    }
    if (shown == 0) return;
    const auto common = std::max_element(colours.begin(), colours.end(),
                                         [](const auto &x, const auto &y) { return x.second < y.second; });
    const QColor c = parsed(std::string(common->first));
    auto shade = [](int cover) { return cover <= 0 ? 0 : std::min(6, 1 + int(std::log2(double(cover)))); };
    int cover = 0, runStart = 0, runShade = 0;
    for (int x = 0; x <= width; ++x) {
        const int s = x < width ? shade(cover += diff[size_t(x)]) : -1;
        if (s == runShade) continue;
        if (runShade > 0) {
            QColor fill = c;
            fill.setAlpha(8 + 12 * runShade);
            p.fillRect(QRectF(area.left() + runStart, area.top(), x - runStart, area.height()), fill);
            p.fillRect(QRectF(area.left() + runStart, area.top(), x - runStart, 3), c);
        }
        runStart = x;
        runShade = s;
    }
    const QString count = QObject::tr("%L1 notes in view").arg(qulonglong(shown));
    const QFontMetricsF fm(p.font());
    const QRectF box(area.right() - fm.horizontalAdvance(count) - 14, area.bottom() - fm.height() - 8,
                     fm.horizontalAdvance(count) + 10, fm.height() + 4);
    p.setPen(QPen(c.darker(130), 1));
    p.setBrush(QColor(255, 255, 255, 225));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(QColor(30, 32, 36));
    p.drawText(box, Qt::AlignCenter, count);
}

void AnnotationPainter::paintLabels(QPainter &p, const std::vector<const Annotation *> &notes, const QRect &area,
                                    const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits) {
    QFont font = p.font();
    font.setPointSizeF(9);
    font.setBold(true);
    p.setFont(font);
    const QFontMetricsF fm(font);
    // Dense notes get half the rows: the picture is about the trace under them.
    const int rowCap = notes.size() > size_t(kMaxBands) ? kMaxLabelRows / 2 : kMaxLabelRows;
    const size_t maxRows = size_t(std::clamp((area.height() - 2) / (kLabelHeight + 2), 1, rowCap));
    const double left = area.left(), right = area.right();
    std::vector<double> rowEnd;  // right edge of the last label on each label row
    int measured = 0;
    for (const Annotation *a : notes) {
        double x0 = xOf(a->startNs);
        const double x1 = xOf(std::max(a->startNs, a->endNs));
        if (x1 < left - 1 || x0 > right + 1) continue;
        x0 = std::max(x0, left - 2);
        // The label starts at most here (further left only near the right edge): with no row free
        // there, it has no room, and is not measured.
        const double latest = std::clamp(x0, left, std::max(left, right));
        if (rowEnd.size() >= maxRows && *std::min_element(rowEnd.begin(), rowEnd.end()) > latest) continue;
        if (++measured > kMaxLabelMeasures) break;
        // The label: at the note's start, kept on screen, on the first row where it does not overlap.
        const QString text = labelText(*a);
        // As wide as its text, up to kMaxLabelWidth or half the view, whichever is more: a label is
        // cut only when there is no room for it (its whole text is the tooltip).
        const double want = std::min<double>(std::max<double>(kMaxLabelWidth, (right - left) / 2), fm.horizontalAdvance(text) + 14);
        const double lx = std::clamp(x0, left, std::max(left, right - want));
        size_t row = 0;
        while (row < rowEnd.size() && rowEnd[row] > lx) ++row;
        if (row == rowEnd.size()) {
            if (row >= maxRows) continue;
            rowEnd.push_back(0);
        }
        rowEnd[row] = lx + want + 4;
        const QColor c = color(*a);
        const QRectF label(lx, area.top() + 2 + double(row) * (kLabelHeight + 2), want, kLabelHeight);
        QColor back = c.lighter(185);
        back.setAlpha(235);
        p.setPen(QPen(c.darker(130), 1));
        p.setBrush(back);
        p.drawRoundedRect(label, 3, 3);
        p.fillRect(QRectF(label.left() + 1, label.top() + 1, 4, label.height() - 2), c);
        p.setPen(QColor(30, 32, 36));
        p.drawText(label.adjusted(8, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(text, Qt::ElideRight, label.width() - 12));
        if (hits) hits->push_back({label, a->id, true});
    }
}

} // namespace stepscope

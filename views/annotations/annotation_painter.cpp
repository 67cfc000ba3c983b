#include "views/annotations/annotation_painter.h"

#include <QPainterPath>

#include <algorithm>

namespace stepscope {

QColor AnnotationPainter::color(const Annotation &a) {
    QColor c(QString::fromStdString(a.color));
    return c.isValid() ? c : QColor(0xf5, 0xa6, 0x23);
}

void AnnotationPainter::paint(QPainter &p, const std::vector<Annotation> &notes, const QRect &area,
                              const std::function<double(int64_t)> &xOf, std::vector<AnnotationHit> *hits) {
    if (hits) hits->clear();
    if (notes.empty() || area.width() <= 0) return;
    p.save();
    p.setClipRect(area);
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont font = p.font();
    font.setPointSizeF(9);
    font.setBold(true);
    p.setFont(font);
    const QFontMetricsF fm(font);
    std::vector<double> rowEnd;  // right edge of the last label on each label row
    for (const Annotation &a : notes) {
        const QColor c = color(a);
        double x0 = xOf(a.startNs), x1 = xOf(std::max(a.startNs, a.endNs));
        if (x1 < area.left() - 1 || x0 > area.right() + 1) continue;
        x0 = std::max(x0, double(area.left()) - 2);
        x1 = std::min(x1, double(area.right()) + 2);
        QColor fill = c;
        if (a.isPoint() || x1 - x0 < 2) {
            p.setPen(QPen(c, 2));
            p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
        } else {
            fill.setAlpha(x1 - x0 >= 0.9 * area.width() ? 14 : 40);  // a note over everything only tints
            p.fillRect(QRectF(x0, area.top(), x1 - x0, area.height()), fill);
            p.setPen(QPen(c, 1.5));
            p.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
            p.drawLine(QPointF(x1, area.top()), QPointF(x1, area.bottom()));
        }
        // The label: at the note's start, kept on screen, on the first row where it does not overlap.
        const QString text = QString::fromStdString(a.text);
        const double want = std::min<double>(kMaxLabelWidth, fm.horizontalAdvance(text) + 14);
        const double lx = std::clamp(x0, double(area.left()), std::max(double(area.left()), area.right() - want));
        size_t row = 0;
        while (row < rowEnd.size() && rowEnd[row] > lx) ++row;
        if (row == rowEnd.size()) rowEnd.push_back(0);
        rowEnd[row] = lx + want + 4;
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
        if (hits) {
            hits->push_back({label, a.id});
            hits->push_back({QRectF(x0 - 2, area.top(), std::max(4.0, x1 - x0 + 4), area.height()), a.id});
        }
    }
    p.restore();
}

} // namespace stepscope

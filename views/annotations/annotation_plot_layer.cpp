#include "views/annotations/annotation_plot_layer.h"

#include "models/text/display_text.h"
#include "views/annotations/annotation_dialog.h"
#include "views/annotations/annotation_painter.h"

#include <QMenu>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace stepscope {

namespace {

// All the notes of a chart in one item: per pixel column of the key axis, shaded by how many notes
// cover it (one pass over the notes' key ranges and one over the columns per replot), a strip along
// the top where any note is, and the count.
class NoteDensityItem : public QCPAbstractItem {
public:
    // Its own copy of the key ranges: the item belongs to the plot and may outlive the layer.
    NoteDensityItem(QCustomPlot *plot, std::vector<std::pair<double, double>> keys, QColor color)
        : QCPAbstractItem(plot), m_keys(std::move(keys)), m_color(std::move(color)) {}
    double selectTest(const QPointF &, bool, QVariant *) const override { return -1; }

protected:
    void draw(QCPPainter *p) override {
        QCPAxisRect *rect = clipAxisRect();
        QCPAxis *axis = rect ? rect->axis(QCPAxis::atBottom) : nullptr;
        if (!axis) return;
        const QRect area = rect->rect();
        const int width = area.width();
        if (width <= 0) return;
        std::vector<int> diff(size_t(width) + 1, 0);
        int shown = 0;
        for (const auto &keys : m_keys) {
            const double x0 = axis->coordToPixel(keys.first) - area.left(), x1 = axis->coordToPixel(keys.second) - area.left();
            if (std::max(x0, x1) < -1 || std::min(x0, x1) > width) continue;
            const int c0 = std::clamp(int(std::floor(std::min(x0, x1))), 0, width - 1);
            const int c1 = std::clamp(int(std::ceil(std::max(x0, x1))), c0 + 1, width);
            ++diff[size_t(c0)];
            --diff[size_t(c1)];
            ++shown;
        }
        int cover = 0, runStart = 0, runShade = 0;
        for (int x = 0; x <= width; ++x) {
            const int c = x < width ? (cover += diff[size_t(x)]) : 0;
            const int s = c <= 0 ? 0 : std::min(6, 1 + int(std::log2(double(c))));
            if (x < width && s == runShade) continue;
            if (runShade > 0) {
                QColor fill = m_color;
                fill.setAlpha(10 + 14 * runShade);
                p->fillRect(QRectF(area.left() + runStart, area.top(), x - runStart, area.height()), fill);
                p->fillRect(QRectF(area.left() + runStart, area.top(), x - runStart, 3), m_color);
            }
            runStart = x;
            runShade = s;
        }
        if (shown == 0) return;
        const QString count = QObject::tr("%L1 notes").arg(shown);
        const QFontMetricsF fm(p->font());
        const QRectF box(area.right() - fm.horizontalAdvance(count) - 12, area.top() + 5, fm.horizontalAdvance(count) + 8,
                         fm.height() + 2);
        p->setPen(QPen(m_color.darker(130), 1));
        p->setBrush(QColor(255, 255, 255, 225));
        p->drawRect(box);
        p->setPen(QColor(30, 32, 36));
        p->drawText(box, Qt::AlignCenter, count);
    }

private:
    std::vector<std::pair<double, double>> m_keys;
    QColor m_color;
};

} // namespace

AnnotationPlotLayer::AnnotationPlotLayer(QCustomPlot *plot, AnnotationModel *model, KeyRange keys)
    : QObject(plot), m_plot(plot), m_model(model), m_keys(std::move(keys)) {
    connect(m_model, &AnnotationModel::changed, this, [this] {
        refresh();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

AnnotationPlotLayer::KeyRange AnnotationPlotLayer::timeKeys(std::function<int64_t()> originNs, double nsPerKey) {
    return [originNs = std::move(originNs), nsPerKey](const Annotation &a) -> std::optional<std::pair<double, double>> {
        const int64_t o = originNs();
        return std::make_pair(double(a.startNs - o) / nsPerKey, double(std::max(a.startNs, a.endNs) - o) / nsPerKey);
    };
}

QCPAxis *AnnotationPlotLayer::keyAxis() const {
    return m_rect ? m_rect->axis(QCPAxis::atBottom) : m_plot->xAxis;
}

void AnnotationPlotLayer::place(QCPAbstractItem *item) const {
    if (!m_rect) return;
    item->setClipAxisRect(m_rect);
    for (QCPItemPosition *pos : item->positions()) {
        pos->setAxes(m_rect->axis(QCPAxis::atBottom), m_rect->axis(QCPAxis::atLeft));
        pos->setAxisRect(m_rect);
    }
}

void AnnotationPlotLayer::refresh() {
    if (!keyAxis()) return;
    for (QCPAbstractItem *item : m_items) m_plot->removeItem(item);
    m_items.clear();
    m_ranges.clear();
    m_labels.clear();
    std::vector<const Annotation *> onChart;
    for (const Annotation &a : m_model->annotations()) {
        const auto keys = m_keys(a);
        if (!keys) continue;
        m_ranges.push_back({*keys, a.id});
        onChart.push_back(&a);
    }
    if (onChart.size() > size_t(kMaxNoteItems)) {
        std::vector<std::pair<double, double>> keys;
        keys.reserve(m_ranges.size());
        for (const auto &r : m_ranges) keys.push_back(r.first);
        auto *density = new NoteDensityItem(m_plot, std::move(keys), AnnotationPainter::color(*onChart.front()));
        place(density);
        m_items.push_back(density);
        return;
    }
    int row = 0;
    for (size_t i = 0; i < onChart.size(); ++i) {
        const Annotation &a = *onChart[i];
        const auto [lo, hi] = m_ranges[i].first;
        const QColor c = AnnotationPainter::color(a);
        QColor band = c;
        const bool everything = hi - lo >= 0.9 * keyAxis()->range().size();  // a note over it all only tints
        band.setAlpha(hi > lo ? (everything ? 14 : 38) : 0);
        auto *rect = new QCPItemRect(m_plot);
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->topLeft->setCoords(lo, 0);
        rect->bottomRight->setCoords(hi, 1);
        rect->setPen(hi > lo ? QPen(c, 1) : QPen(c, 2));
        rect->setBrush(band);
        place(rect);
        m_items.push_back(rect);
        auto *strip = new QCPItemRect(m_plot);
        strip->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        strip->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        strip->topLeft->setCoords(lo, 0);
        strip->bottomRight->setCoords(hi, 0.025);
        strip->setPen(QPen(c, 1));
        strip->setBrush(c);
        place(strip);
        m_items.push_back(strip);
        auto *label = new QCPItemText(m_plot);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(lo, 0.03 + 0.09 * (row++ % 3));  // stagger neighbours
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(AnnotationPainter::labelText(a));
        QFont f = m_plot->font();
        f.setPointSizeF(8.5);
        f.setBold(true);
        label->setFont(f);
        // A label that would run past the chart's right edge ends at its note's end instead (the
        // chart clips its items), when there is room to the left.
        const double textPx = QFontMetricsF(f).horizontalAdvance(label->text()) + 10;
        const QRect area = (m_rect ? m_rect : m_plot->axisRect())->rect();
        if (keyAxis()->coordToPixel(lo) + textPx > area.right() && keyAxis()->coordToPixel(hi) - textPx >= area.left()) {
            label->position->setCoords(hi, 0.03 + 0.09 * ((row - 1) % 3));
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        }
        QColor back = c.lighter(185);
        back.setAlpha(230);
        label->setBrush(back);
        label->setPen(QPen(c.darker(130)));
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setColor(QColor(30, 32, 36));
        place(label);
        m_items.push_back(label);
        m_labels.push_back({label, a.id});
    }
}

QString AnnotationPlotLayer::noteTextAt(double x, double y) const {
    for (const auto &[label, id] : m_labels) {
        const QRectF box = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        if (!box.contains(QPointF(x, y))) continue;  // not on this label
        if (const Annotation *a = m_model->find(id)) return QString::fromStdString(a->text);
    }
    return {};
}

int64_t AnnotationPlotLayer::annotationAtPixel(double x) const {
    const double key = keyAxis()->pixelToCoord(x);
    const double slack = std::abs(keyAxis()->pixelToCoord(x + 3) - key);
    for (const auto &[range, id] : m_ranges)
        if (key >= range.first - slack && key <= range.second + slack) return id;
    return 0;
}

void AnnotationPlotLayer::addMenuActions(QMenu &menu, QWidget *parent, double pixelX, int64_t startNs, int64_t endNs,
                                         const QString &what) {
    menu.addAction(tr("Annotate %1…").arg(what), parent, [this, parent, startNs, endNs] {
        AnnotationDialog::create(parent, m_model, startNs, endNs);
    });
    const int64_t id = annotationAtPixel(pixelX);
    if (id <= 0) return;
    const Annotation *a = m_model->find(id);
    const QString text = a ? labelText(a->text, 40) : QString();
    menu.addAction(tr("Edit “%1”…").arg(text), parent, [this, parent, id] { AnnotationDialog::edit(parent, m_model, id); });
    menu.addAction(tr("Delete “%1”").arg(text), parent, [this, id] { m_model->remove(id); });
}

} // namespace stepscope

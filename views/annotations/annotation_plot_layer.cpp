#include "views/annotations/annotation_plot_layer.h"

#include "views/annotations/annotation_dialog.h"
#include "views/annotations/annotation_painter.h"

#include <QMenu>
#include <qcustomplot.h>

namespace stepscope {

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
    int row = 0;
    for (const Annotation &a : m_model->annotations()) {
        const auto keys = m_keys(a);
        if (!keys) continue;
        const auto [lo, hi] = *keys;
        m_ranges.push_back({{lo, hi}, a.id});
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
        label->setText(QString::fromStdString(a.text));
        QFont f = m_plot->font();
        f.setPointSizeF(8.5);
        f.setBold(true);
        label->setFont(f);
        QColor back = c.lighter(185);
        back.setAlpha(230);
        label->setBrush(back);
        label->setPen(QPen(c.darker(130)));
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setColor(QColor(30, 32, 36));
        place(label);
        m_items.push_back(label);
    }
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
    const QString text = a ? QString::fromStdString(a->text).left(40) : QString();
    menu.addAction(tr("Edit “%1”…").arg(text), parent, [this, parent, id] { AnnotationDialog::edit(parent, m_model, id); });
    menu.addAction(tr("Delete “%1”").arg(text), parent, [this, id] { m_model->remove(id); });
}

} // namespace stepscope

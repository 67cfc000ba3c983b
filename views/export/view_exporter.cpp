#include "views/export/view_exporter.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

namespace stepscope {

QString ViewExporter::exportWidget(QWidget *widget, const QString &file, double scale, const QString &title) {
    if (!widget) return QStringLiteral("nothing to export");
    const QString suffix = QFileInfo(file).suffix().toLower();
    const QSize size = widget->size();
    if (suffix == "png" || suffix == "jpg" || suffix == "jpeg") {
        QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter p(&image);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
        p.end();
        return image.save(file) ? QString() : QStringLiteral("%1: cannot write image").arg(file);
    }
    if (suffix == "svg") {
        QSvgGenerator svg;
        svg.setFileName(file);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(), size));
        svg.setTitle(title.isEmpty() ? QStringLiteral("Stepscope") : title);
        QPainter p;
        if (!p.begin(&svg)) return QStringLiteral("%1: cannot write SVG").arg(file);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
        p.end();
        return QFileInfo(file).size() > 0 ? QString() : QStringLiteral("%1: cannot write SVG").arg(file);
    }
    if (suffix == "pdf") {
        QPdfWriter pdf(file);
        pdf.setTitle(title.isEmpty() ? QStringLiteral("Stepscope") : title);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (!p.begin(&pdf)) return QStringLiteral("%1: cannot write PDF").arg(file);
        const double sx = double(pdf.width()) / size.width();
        p.scale(sx, sx);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
        p.end();
        return QString();
    }
    return QStringLiteral("%1: unknown picture format '%2' (png, svg or pdf)").arg(file, suffix);
}

} // namespace stepscope

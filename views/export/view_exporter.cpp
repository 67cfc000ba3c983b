#include "views/export/view_exporter.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QPicture>
#include <QSaveFile>
#include <QWidget>
#include <qcustomplot.h>

#include <cmath>
#include <functional>

namespace stepscope {

namespace {

// Fonts in pixels, so the caption measures the same on every paint device (SVG's and PDF's
// resolutions differ from the screen's).
QFont pixelFont(int px, bool bold = false) {
    QFont f;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}
constexpr int kPad = 10;
constexpr int kTitlePx = 15;
constexpr int kCaptionPx = 12;
constexpr int kLegendPx = 12;
constexpr int kSwatch = 12;
constexpr int kLegendGap = 18;
constexpr int kMaxLegendText = 640;  // a note's label in the legend: cut only beyond this

int captionHeight(const ExportDecoration &d) {
    if (d.title.isEmpty() && d.caption.isEmpty()) return 0;
    int h = kPad;
    if (!d.title.isEmpty()) h += int(std::ceil(QFontMetricsF(pixelFont(kTitlePx, true)).height())) + 2;
    h += int(d.caption.size()) * (int(std::ceil(QFontMetricsF(pixelFont(kCaptionPx)).height())) + 1);
    return h + kPad / 2;
}

double legendItemWidth(const QColor &color, const QString &text) {
    if (!color.isValid()) return QFontMetricsF(pixelFont(kLegendPx, true)).horizontalAdvance(text) + 10;
    return kSwatch + 5 + std::min<double>(kMaxLegendText, QFontMetricsF(pixelFont(kLegendPx)).horizontalAdvance(text)) + kLegendGap;
}

// Lays out the legend in rows of `width`; returns the rows' count (and fills x/row per entry).
int legendRows(const ExportDecoration &d, int width, std::vector<std::pair<double, int>> *pos = nullptr) {
    if (d.legend.empty()) return 0;
    double x = kPad;
    int row = 0;
    for (const auto &[color, text] : d.legend) {
        const double w = legendItemWidth(color, text);
        if (x + w > width - kPad && x > kPad + 1) {
            x = kPad;
            ++row;
        }
        if (pos) pos->push_back({x, row});
        x += w;
    }
    return row + 1;
}

int legendRowHeight() { return int(std::ceil(QFontMetricsF(pixelFont(kLegendPx)).height())) + 6; }

int legendHeight(const ExportDecoration &d, int width) {
    const int rows = legendRows(d, width);
    return rows ? rows * legendRowHeight() + kPad : 0;
}

// UTF-8 made valid XML 1.0 text: C0 controls other than tab, newline and carriage return, and the
// non-characters U+FFFE/U+FFFF, become U+FFFD (visible where they were). No multi-byte UTF-8
// sequence holds a byte below 0x80, so bytes can be replaced one by one.
QByteArray xmlSafe(const QByteArray &utf8) {
    static const char kReplacement[] = "\xEF\xBF\xBD";
    QByteArray out;
    out.reserve(utf8.size());
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out.append(kReplacement, 3);
        } else if (c == 0xEF && i + 2 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) == 0xBF &&
                   (static_cast<unsigned char>(utf8[i + 2]) & 0xFE) == 0xBE) {
            out.append(kReplacement, 3);
            i += 2;
        } else {
            out.append(char(c));
        }
    }
    return out;
}

void renderWidget(QPainter &p, QWidget *widget) {
    widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
    // QCustomPlot paints a cached pixmap; draw its charts again as vectors (text stays text in SVG and
    // PDF, lines stay sharp at 2×) through a QPicture, since the device already has a painter.
    for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>()) {
        if (!plot->isVisibleTo(widget) || plot->width() <= 0 || plot->height() <= 0) continue;
        QPicture picture;
        QCPPainter qp(&picture);
        qp.setMode(QCPPainter::pmVectorized);
        qp.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&qp, plot->width(), plot->height());
        qp.end();
        const QRect at(plot->mapTo(widget, QPoint(0, 0)), plot->size());
        p.save();
        p.setClipRect(at, Qt::IntersectClip);
        p.fillRect(at, Qt::white);
        p.drawPicture(at.topLeft(), picture);
        p.restore();
    }
}

} // namespace

QSize ViewExporter::pictureSize(QWidget *widget, const ExportDecoration &d) {
    const QSize s = widget->size();
    return {s.width(), s.height() + captionHeight(d) + legendHeight(d, s.width())};
}

void ViewExporter::paint(QPainter &p, QWidget *widget, const ExportDecoration &d) {
    const QSize total = pictureSize(widget, d);
    const int width = total.width();
    p.fillRect(QRect(QPoint(), total), Qt::white);
    const int top = captionHeight(d);
    if (top > 0) {
        p.fillRect(QRect(0, 0, width, top), QColor(247, 248, 250));
        p.fillRect(QRect(0, top - 1, width, 1), QColor(215, 219, 226));
        double y = kPad;
        if (!d.title.isEmpty()) {
            p.setFont(pixelFont(kTitlePx, true));
            p.setPen(QColor(25, 28, 33));
            const QFontMetricsF fm(p.font());
            p.drawText(QPointF(kPad, y + fm.ascent()), fm.elidedText(d.title, Qt::ElideRight, width - 2 * kPad));
            y += std::ceil(fm.height()) + 2;
        }
        p.setFont(pixelFont(kCaptionPx));
        p.setPen(QColor(70, 76, 86));
        const QFontMetricsF fm(p.font());
        for (const QString &line : d.caption) {
            p.drawText(QPointF(kPad, y + fm.ascent()), fm.elidedText(line, Qt::ElideRight, width - 2 * kPad));
            y += std::ceil(fm.height()) + 1;
        }
    }
    p.save();
    p.translate(0, top);
    p.setClipRect(QRect(QPoint(), widget->size()));
    renderWidget(p, widget);
    p.restore();
    std::vector<std::pair<double, int>> pos;
    if (legendRows(d, width, &pos) == 0) return;
    const int legendTop = top + widget->height();
    p.fillRect(QRect(0, legendTop, width, total.height() - legendTop), QColor(247, 248, 250));
    p.fillRect(QRect(0, legendTop, width, 1), QColor(215, 219, 226));
    const int rowH = legendRowHeight();
    const QFontMetricsF fm(pixelFont(kLegendPx));
    const double baseline0 = legendTop + kPad / 2 + (rowH - fm.height()) / 2 + fm.ascent();
    for (size_t i = 0; i < d.legend.size(); ++i) {
        const auto &[color, text] = d.legend[i];
        const double x = pos[i].first;
        const double baseline = baseline0 + pos[i].second * rowH;
        if (!color.isValid()) {
            p.setFont(pixelFont(kLegendPx, true));
            p.setPen(QColor(25, 28, 33));
            p.drawText(QPointF(x, baseline), text);
            continue;
        }
        p.setFont(pixelFont(kLegendPx));
        p.fillRect(QRectF(x, baseline - fm.ascent() + (fm.ascent() - kSwatch) / 2 + 1, kSwatch, kSwatch), color);
        p.setPen(QColor(40, 44, 52));
        p.drawText(QPointF(x + kSwatch + 5, baseline), fm.elidedText(text, Qt::ElideRight, kMaxLegendText));
    }
}

QString ViewExporter::exportWidget(QWidget *widget, const QString &file, double scale, const QString &title) {
    ExportOptions o;
    o.scale = scale;
    o.documentTitle = title;
    return exportWidget(widget, file, o);
}

namespace {
// Writes a picture through a temporary file beside `file`, renamed over it only once whole: a full
// disk, a quota or a vanished folder leaves no partial picture, and the error says why.
QString writeWhole(const QString &file, const char *what, const std::function<bool(QIODevice &)> &fill) {
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write %2: %3").arg(file, QLatin1String(what), out.errorString());
    if (!fill(out) || !out.commit()) {
        const QString reason = out.errorString();
        out.cancelWriting();
        return QStringLiteral("%1: cannot write %2: %3; nothing was written")
            .arg(file, QLatin1String(what), reason.isEmpty() ? QStringLiteral("write failed") : reason);
    }
    return QString();
}
} // namespace

bool ViewExporter::writesFormatOf(const QString &file) {
    static const QStringList kSuffixes = {QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"),
                                          QStringLiteral("svg"), QStringLiteral("pdf")};
    return kSuffixes.contains(QFileInfo(file).suffix().toLower());
}

QString ViewExporter::exportWidget(QWidget *widget, const QString &file, const ExportOptions &o) {
    if (!widget) return QStringLiteral("nothing to export");
    const QString suffix = QFileInfo(file).suffix().toLower();
    const ExportDecoration &d = o.decoration;
    const QSize size = pictureSize(widget, d);
    const QString docTitle = !o.documentTitle.isEmpty() ? o.documentTitle : !d.title.isEmpty() ? d.title : QStringLiteral("Stepscope");
    if (suffix == "png" || suffix == "jpg" || suffix == "jpeg") {
        const double scale = std::clamp(o.scale, 0.25, 8.0);
        QImage image(QSize(int(std::lround(size.width() * scale)), int(std::lround(size.height() * scale))),
                     QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter p(&image);
        paint(p, widget, d);
        p.end();
        const QByteArray format = suffix == "png" ? QByteArrayLiteral("PNG") : QByteArrayLiteral("JPG");
        return writeWhole(file, "image", [&](QIODevice &out) { return image.save(&out, format.constData()); });
    }
    if (suffix == "svg") {
        // Written to memory first: text from files may hold control characters, which QSvgGenerator
        // passes through and which make the SVG invalid XML. They are replaced here, in one place
        // for every view, caption and legend.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(), size));
        svg.setResolution(widget->logicalDpiX());  // point-size fonts come out as large as on screen
        svg.setTitle(docTitle);
        svg.setDescription(d.caption.join('\n'));
        QPainter p;
        if (!p.begin(&svg)) return QStringLiteral("%1: cannot write SVG").arg(file);
        paint(p, widget, d);
        p.end();
        const QByteArray xml = xmlSafe(buffer.data());
        return writeWhole(file, "SVG", [&](QIODevice &out) { return out.write(xml) == xml.size(); });
    }
    if (suffix == "pdf") {
        QBuffer bytes;  // painted to memory, then written whole: a full disk leaves no half PDF
        bytes.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&bytes);
        pdf.setTitle(docTitle);
        pdf.setCreator(QStringLiteral("Stepscope"));
        pdf.setResolution(widget->logicalDpiX());
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));  // one page the figure's shape
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (!p.begin(&pdf)) return QStringLiteral("%1: cannot write PDF").arg(file);
        const double sx = double(pdf.width()) / size.width();
        p.scale(sx, sx);
        paint(p, widget, d);
        p.end();
        if (bytes.data().isEmpty()) return QStringLiteral("%1: cannot write PDF").arg(file);
        return writeWhole(file, "PDF", [&](QIODevice &out) { return out.write(bytes.data()) == bytes.data().size(); });
    }
    return QStringLiteral("%1: unknown picture format '%2' (png, svg or pdf)").arg(file, suffix);
}

} // namespace stepscope

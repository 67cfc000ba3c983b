#pragma once
// ViewExporter renders any widget (a view or the whole window) to PNG (1×/2×), SVG (vector, text
// kept as text) or PDF (one page), picking the format from the file suffix. With a decoration it
// frames the widget as a figure: a caption above (title, source, run, range, verdict) and a legend
// below (the notes and colours in the picture). The GUI's Export actions, the headless
// `stepscope export` command and the evidence pack of `report --screenshots` all go through it, so
// the pictures are the same everywhere.

#include <QColor>
#include <QSize>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

class QPainter;
class QWidget;

namespace stepscope {

struct ExportDecoration {
    QString title;                                  // first caption line, bold
    QStringList caption;                            // further lines (source, run, range, verdict)
    std::vector<std::pair<QColor, QString>> legend; // swatch colour and text; an invalid colour: a bold heading
    bool empty() const { return title.isEmpty() && caption.isEmpty() && legend.empty(); }
};

struct ExportOptions {
    double scale = 1.0;         // PNG only: 2 for a 2× (high-DPI) picture
    ExportDecoration decoration; // empty: the bare widget
    QString documentTitle;       // SVG/PDF metadata; defaults to the decoration's title
};

class ViewExporter {
public:
    // Returns an empty string on success, else the reason (naming the file).
    static QString exportWidget(QWidget *widget, const QString &file, const ExportOptions &options);
    // Whether `file`'s suffix names a format exportWidget writes (png, jpg, jpeg, svg, pdf).
    static bool writesFormatOf(const QString &file);
    static QString exportWidget(QWidget *widget, const QString &file, double scale = 1.0, const QString &title = {});

    // The figure's size (widget plus caption and legend) and its painting, shared by all formats.
    static QSize pictureSize(QWidget *widget, const ExportDecoration &d);
    static void paint(QPainter &p, QWidget *widget, const ExportDecoration &d);
};

} // namespace stepscope

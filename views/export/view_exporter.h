#pragma once
// ViewExporter renders any widget (a view or the whole window) to PNG (1×/2×), SVG (vector, text
// kept as text) or PDF, picking the format from the file suffix. The GUI's Export actions and the
// headless `stepscope export` command both go through it, so the pictures are the same.

#include <QString>

class QWidget;

namespace stepscope {

class ViewExporter {
public:
    // Returns an empty string on success, else the reason (naming the file).
    static QString exportWidget(QWidget *widget, const QString &file, double scale = 1.0, const QString &title = {});
};

} // namespace stepscope

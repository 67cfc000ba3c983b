#pragma once
// FigureRenderer makes one exported picture from a MainWindow: it zooms the window's shared
// TimeRangeController to the range asked for, adds the figure's notes as transient annotations (drawn
// by every view, never written to the session), lays out the view asked for at the size asked for,
// and hands it with its caption and legend (ExportCaption) to ViewExporter. `stepscope export`, the
// evidence pack of `report --screenshots` and the GUI's Export actions share it, so a picture looks
// the same whichever way it was made. A view's picture is its content: toolbars and rows of controls
// are hidden while it is taken, and a timeline grows until its last track is whole.

#include "app/gui/main_window.h"
#include "models/store/annotation_store.h"

#include <QSize>
#include <QString>

#include <vector>

namespace stepscope::gui {

struct FigureRequest {
    QString view = QStringLiteral("window");  // "window" or one of MainWindow::viewNames()
    QSize size{1600, 1000};                   // headless only: the live widget keeps its size in the GUI
    double scale = 1.0;                       // PNG: 2 for 2×
    NsRange range;                            // invalid: what the window shows now
    std::vector<Annotation> notes;            // transient notes for this picture only
    QString title;                            // caption title (empty: "Stepscope — <view>")
    bool caption = true;                      // caption and legend around the view
};

class FigureRenderer {
public:
    explicit FigureRenderer(MainWindow &window) : m_window(window) {}
    // Renders headless: a fresh view (or the whole window) at request.size. Returns the error, empty on success.
    QString render(const FigureRequest &request, const QString &file);
    // Renders a widget that is already on screen (GUI export), with the same caption and legend.
    QString renderLive(QWidget *widget, const FigureRequest &request, const QString &file);

private:
    class Staging;
    QString exportWith(QWidget *widget, const FigureRequest &request, const QString &file);
    MainWindow &m_window;
};

} // namespace stepscope::gui

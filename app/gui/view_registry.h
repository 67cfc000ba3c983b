#pragma once
// The window's views in one table: each view's name (the `--view` of `stepscope export`, the Export
// dialog's list, MainWindow::viewWidget), its dock's title and object name (saved layouts find docks
// by it), where its dock goes in the default layout, and how it is made from the window's shared
// models. MainWindow builds its docks from this table; export renders a fresh view from it.

#include "models/qt/session_models.h"

#include <QString>
#include <Qt>

#include <functional>
#include <vector>

class QWidget;

namespace stepscope {
class MetricSeriesModel;
class TimelineView;
}

namespace stepscope::gui {

// What a view is made from: the window's models, one of each per window, handed to the constructor.
struct ViewModels {
    SessionModels shared;                        // the session, time range, analyses, notes, saved views
    MetricSeriesModel *metrics = nullptr;        // instance metrics (utilization view, metric tracks)
    TimelineView *timeline = nullptr;            // the window's timeline (the Details panel reads its selection)
    bool headless = false;                       // export / evidence pack: no remembered habits
};

// Where a view's dock goes when the window is built (in table order).
enum class DockPlacement {
    Centre,     // the window's centre (the timeline), not a dock
    Area,       // a dock of its own in `area`
    Beside,     // split beside `relative`'s dock, left to right
    TabWith,    // a tab in `relative`'s dock group
};

struct ViewEntry {
    QString name;                // steps, utilization, ...: stable, used on the command line
    const char *title;           // the dock's title, translated where shown (ViewRegistry context)
    QString dockName;            // the dock's object name; empty for the centre
    DockPlacement placement = DockPlacement::Area;
    Qt::DockWidgetArea area = Qt::BottomDockWidgetArea;
    QString relative;            // Beside / TabWith: the view whose dock this one joins
    bool exportable = true;      // listed by viewNames() (Details follows a selection: not a figure)
    std::function<QWidget *(const ViewModels &, QWidget *parent)> create;
};

// Every view, in the order the window builds them.
const std::vector<ViewEntry> &viewEntries();
// The entry named `name`, or nullptr.
const ViewEntry *findViewEntry(const QString &name);
// The translated dock title of an entry.
QString viewTitle(const ViewEntry &entry);

} // namespace stepscope::gui

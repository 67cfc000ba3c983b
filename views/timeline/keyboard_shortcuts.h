#pragma once
// KeyboardShortcuts is the reference card of keys and mouse gestures: Help ▸ Keyboard Shortcuts, or
// "?" in the timeline. It is generated, so it cannot drift from the bindings: the timeline's own keys
// and gestures (handled in TimelineView's event handlers, listed here) beside every QAction of the
// window that has a shortcut, with the action's own text and key sequence, grouped by where it
// works: its menu, else the dock or pane it belongs to (so two "Copy" rows say which panel copies).

#include <QString>

#include <vector>

class QDialog;
class QWidget;

namespace stepscope {

class KeyboardShortcuts {
public:
    struct Row {
        QString keys, what;
        QString area;  // the menu, dock or pane (action rows); empty for the timeline's own rows
    };
    // The timeline's keys and gestures (not QActions: they are handled by TimelineView itself).
    static std::vector<Row> timelineRows();
    // One row per QAction under `window` (menus, docks, panes) with a shortcut, in menu order as
    // found, duplicates (same text and keys) once. `window` may be null: none.
    static std::vector<Row> actionRows(const QWidget *window);
    // The reference card as HTML: the timeline's rows in one column, the window's actions by area in
    // a second, so the card fits a screen without scrolling.
    static QString html(const QWidget *window = nullptr);
    // A non-modal dialog showing the card of `parent`'s window (deleted on close).
    static QDialog *showDialog(QWidget *parent);
};

} // namespace stepscope

#pragma once
// KeyboardShortcuts lists every key and mouse gesture of the timeline and the window (Perfetto and
// chrome://tracing conventions) in one reference card: Help ▸ Keyboard Shortcuts, or "?" in the
// timeline. The table is the single place the bindings are described.

#include <QString>

class QDialog;
class QWidget;

namespace stepscope {

class KeyboardShortcuts {
public:
    // The reference card as an HTML table.
    static QString html();
    // A non-modal dialog showing it (deleted on close).
    static QDialog *showDialog(QWidget *parent);
};

} // namespace stepscope

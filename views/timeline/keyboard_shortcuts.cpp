#include "views/timeline/keyboard_shortcuts.h"

#include <QDialog>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace stepscope {

QString KeyboardShortcuts::html() {
    struct Row { const char *keys, *what; };
    static const Row rows[] = {
        {"W / S", "zoom in / out at the mouse (or the centre)"},
        {"A / D", "pan left / right by a tenth of the view"},
        {"Ctrl + wheel", "zoom at the cursor"},
        {"wheel, ↑ / ↓", "scroll the tracks"},
        {"Shift + wheel", "pan"},
        {"drag", "pan (and scroll)"},
        {"Shift + drag, or drag on the ruler", "select a time range (every view follows)"},
        {"F", "zoom to the selected range, or to the selected slice"},
        {"Esc", "clear the selection"},
        {"double-click a slice", "zoom to it"},
        {"click a step number", "zoom to that step"},
        {"Alt + ← / Alt + →", "zoom history back / forward"},
        {"0", "whole session"},
        {"Ctrl + F", "search slices across the whole session; Enter / Shift+Enter step through hits"},
        {"drag a track's name", "reorder tracks in its group"},
        {"Alt + ↑ / Alt + ↓", "move the selected slice's track up / down"},
        {"right-click a track's name", "hide, move, or show all tracks"},
        {"click a group header", "collapse / expand"},
        {"Ctrl + Z / Ctrl + Shift + Z", "undo / redo annotations"},
        {"Ctrl + E / Ctrl + Shift + E", "export the view / the window"},
        {"?", "this card"},
    };
    QString out = QStringLiteral("<table cellspacing='0' cellpadding='4'>");
    for (const Row &r : rows)
        out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                   .arg(QString::fromUtf8(r.keys).toHtmlEscaped(), QString::fromUtf8(r.what).toHtmlEscaped());
    return out + QStringLiteral("</table>");
}

QDialog *KeyboardShortcuts::showDialog(QWidget *parent) {
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("keyboardShortcuts"));
    dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    auto *text = new QTextBrowser(dialog);
    text->setHtml(html());
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(560, 560);
    dialog->show();
    return dialog;
}

} // namespace stepscope

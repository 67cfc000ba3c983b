#include "views/timeline/keyboard_shortcuts.h"

#include <QAction>
#include <QDialog>
#include <QMenu>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope {

namespace {
// "&Open File…" -> "Open File…": mnemonics are for menus, not for a card ("&&" is a literal "&").
QString plainText(QString text) {
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return text;
}

// The menu an action sits in, as "View ▸ ", so "Next Saved View" reads with its place.
QString menuPrefix(const QAction *action) {
    for (const QObject *o : action->associatedObjects())
        if (const auto *menu = qobject_cast<const QMenu *>(o); menu && !menu->title().isEmpty())
            return plainText(menu->title()) + QStringLiteral(" ▸ ");
    return {};
}
} // namespace

std::vector<KeyboardShortcuts::Row> KeyboardShortcuts::timelineRows() {
    // What TimelineView's keyPressEvent, mouse and wheel handlers do (timeline_view_input.cpp).
    static const char *const rows[][2] = {
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
        {"R", "align the ranks at the step under the mouse; again: recorded times"},
        {"Enter / Shift + Enter in the search box", "next / previous hit"},
        {"Ctrl + Shift + P", "mark each step's critical path on the tracks (the \"Critical path\" button)"},
        {"drag a track's name", "reorder tracks in its group"},
        {"Alt + ↑ / Alt + ↓", "move the selected slice's track up / down"},
        {"right-click a track's name", "hide, move, or show all tracks"},
        {"click a group header", "collapse / expand"},
        {"?", "this card"},
    };
    std::vector<Row> out;
    for (const auto &r : rows) out.push_back({QString::fromUtf8(r[0]), QString::fromUtf8(r[1])});
    return out;
}

std::vector<KeyboardShortcuts::Row> KeyboardShortcuts::actionRows(const QWidget *window) {
    std::vector<Row> out;
    if (!window) return out;
    for (const QAction *a : window->findChildren<QAction *>()) {
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            if (!k.isEmpty()) keys << k.toString(QKeySequence::NativeText);
        if (keys.isEmpty()) continue;
        QString what = plainText(a->text());
        if (what.isEmpty()) what = plainText(a->toolTip());
        Row row{keys.join(QStringLiteral(", ")), menuPrefix(a) + what};
        const bool seen = std::any_of(out.begin(), out.end(), [&](const Row &r) { return r.keys == row.keys && r.what == row.what; });
        if (!seen) out.push_back(std::move(row));
    }
    return out;
}

QString KeyboardShortcuts::html(const QWidget *window) {
    QString out = QStringLiteral("<table cellspacing='0' cellpadding='4'>");
    auto section = [&out](const QString &title, const std::vector<Row> &rows) {
        if (rows.empty()) return;
        out += QStringLiteral("<tr><td colspan='2'><br><b><i>%1</i></b></td></tr>").arg(title.toHtmlEscaped());
        for (const Row &r : rows)
            out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r.keys.toHtmlEscaped(), r.what.toHtmlEscaped());
    };
    section(QObject::tr("Timeline"), timelineRows());
    section(QObject::tr("Menus and panels"), actionRows(window));
    return out + QStringLiteral("</table>");
}

QDialog *KeyboardShortcuts::showDialog(QWidget *parent) {
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("keyboardShortcuts"));
    dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
    auto *text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("shortcutCard"));
    text->setHtml(html(parent ? parent->window() : nullptr));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    dialog->resize(600, 640);
    dialog->show();
    return dialog;
}

} // namespace stepscope

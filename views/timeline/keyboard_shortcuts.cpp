#include "views/timeline/keyboard_shortcuts.h"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QMenu>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QScreen>
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

// Where an action works: the menu it sits in ("File ▸ Compare With" for a submenu), else the dock or
// the named pane it belongs to, else the window.
QString areaOf(const QAction *action) {
    for (const QObject *o : action->associatedObjects())
        if (const auto *menu = qobject_cast<const QMenu *>(o); menu && !menu->title().isEmpty()) {
            QString area = plainText(menu->title());
            for (const QObject *o2 : menu->menuAction()->associatedObjects())
                if (const auto *outer = qobject_cast<const QMenu *>(o2); outer && !outer->title().isEmpty())
                    area = plainText(outer->title()) + QStringLiteral(" ▸ ") + area;
            return area;
        }
    for (const QObject *p = action->parent(); p; p = p->parent()) {
        if (const auto *dock = qobject_cast<const QDockWidget *>(p); dock && !dock->windowTitle().isEmpty()) return dock->windowTitle();
        if (p->objectName() == QLatin1String("timelinePane")) return QObject::tr("Timeline");
    }
    return QObject::tr("Window");
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
    for (const auto &r : rows) out.push_back({QString::fromUtf8(r[0]), QString::fromUtf8(r[1]), QString()});
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
        Row row{keys.join(QStringLiteral(", ")), what, areaOf(a)};
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const Row &r) { return r.keys == row.keys && r.what == row.what && r.area == row.area; });
        if (!seen) out.push_back(std::move(row));
    }
    return out;
}

QString KeyboardShortcuts::html(const QWidget *window) {
    auto section = [](QString &out, const QString &title, const std::vector<Row> &rows) {
        if (rows.empty()) return;
        out += QStringLiteral("<tr><td colspan='2'><b><i>%1</i></b></td></tr>").arg(title.toHtmlEscaped());
        for (const Row &r : rows)
            out += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r.keys.toHtmlEscaped(), r.what.toHtmlEscaped());
    };
    QString left = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    section(left, QObject::tr("Timeline (mouse over it)"), timelineRows());
    left += QStringLiteral("</table>");
    // The window's actions by area, areas in the order they first appear.
    const std::vector<Row> actions = actionRows(window);
    QStringList areas;
    for (const Row &r : actions)
        if (!areas.contains(r.area)) areas << r.area;
    QString right = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    for (const QString &area : areas) {
        std::vector<Row> rows;
        for (const Row &r : actions)
            if (r.area == area) rows.push_back(r);
        section(right, area, rows);
    }
    right += QStringLiteral("</table>");
    return QStringLiteral("<table cellspacing='0' cellpadding='6'><tr><td valign='top'>%1</td><td valign='top'>%2</td></tr></table>")
        .arg(left, right);
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
    // A Close button (Esc too), and the card takes the focus so Esc reaches it, not the window.
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    // Its rows and the Close button without scrolling (the screen's room when it is smaller).
    QSize size(1020, 720);
    if (const QScreen *screen = dialog->screen()) size = size.boundedTo(screen->availableGeometry().size());
    dialog->resize(size);
    dialog->show();
    dialog->activateWindow();
    buttons->button(QDialogButtonBox::Close)->setFocus();
    return dialog;
}

} // namespace stepscope

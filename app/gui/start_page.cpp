#include "app/gui/start_page.h"

#include "models/store/session_reader.h"
#include "models/store/session_store.h"

#include <QAction>
#include <QDateTime>
#include <QMainWindow>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace stepscope::gui {

QString describeSessionFile(const QString &session) {
    const QFileInfo info(session);
    if (!info.isFile()) return {};
    try {
        const SessionStore store(session.toStdString(), SessionStore::Mode::ReadOnly);
        const SessionReader reader(store);
        const auto runs = reader.runs();
        std::set<std::string> formats;
        for (const SourceRow &s : reader.sources()) formats.insert(s.format);
        QStringList kinds;
        for (const std::string &f : formats) kinds << QString::fromStdString(f);
        QStringList parts;
        parts << (runs.size() == 1 ? StartPage::tr("1 run") : StartPage::tr("%1 runs").arg(runs.size()));
        if (runs.size() == 1) parts.back() += QStringLiteral(" (%1)").arg(QString::fromStdString(runs.front().name));
        if (!kinds.isEmpty()) parts << kinds.join(QStringLiteral(", "));
        parts << StartPage::tr("%1 MB").arg(double(info.size()) / 1e6, 0, 'f', 1);
        parts << StartPage::tr("imported %1").arg(QLocale().toString(info.lastModified(), QLocale::ShortFormat));
        return parts.join(QStringLiteral(" · "));
    } catch (const std::exception &) {
        return StartPage::tr("its session cannot be read: opening imports it again");
    }
}

StartPage::StartPage(QWidget *parent) : QWidget(parent), m_recent(new QListWidget(this)), m_noRecent(new QLabel(this)) {
    setObjectName(QStringLiteral("startPage"));
    setAutoFillBackground(true);
    // It scrolls rather than ask the window for height (the docks below keep theirs on small screens).
    auto *scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *page = new QVBoxLayout(this);
    page->setContentsMargins(0, 0, 0, 0);
    page->addWidget(scroll);
    auto *outer = new QHBoxLayout(content);
    outer->setContentsMargins(24, 16, 24, 16);
    auto *column = new QVBoxLayout;
    column->setSpacing(10);
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);

    auto *title = new QLabel(tr("<h2>Stepscope</h2>Why is training slower than the GPU allows? Open a profile: a TensorFlow or "
                                "JAX logdir, a PyTorch trace, an Nsight Systems export, with nvidia-smi or other metrics beside it."),
                             this);
    title->setWordWrap(true);
    column->addWidget(title);

    auto *buttons = new QHBoxLayout;
    auto button = [this, buttons](const QString &text, const QString &tip, void (StartPage::*signal)()) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, signal);
        buttons->addWidget(b);
        return b;
    };
    button(tr("Open &Folder…"), tr("A logdir or any folder with traces and metrics (Ctrl+Shift+O)"), &StartPage::openFolderRequested)
        ->setObjectName(QStringLiteral("startOpenFolder"));
    button(tr("Open F&ile…"), tr("One or more trace, metrics or session files (Ctrl+O)"), &StartPage::openFileRequested)
        ->setObjectName(QStringLiteral("startOpenFile"));
    button(tr("Open the &Demo"), tr("A generated PyTorch run whose GPU waits for its input pipeline, with its nvidia-smi log"),
           &StartPage::openDemoRequested)
        ->setObjectName(QStringLiteral("startOpenDemo"));
    button(tr("Keyboard &Shortcuts"), tr("Every shortcut of the window (F1)"), &StartPage::shortcutsRequested);
    buttons->addStretch(1);
    column->addLayout(buttons);

    auto *drop = new QLabel(tr("…or drop trace files or a logdir anywhere on this window."), this);
    drop->setStyleSheet(QStringLiteral("color: palette(mid);"));
    column->addWidget(drop);

    auto *recentTitle = new QLabel(tr("<b>Recent</b>"), this);
    column->addSpacing(8);
    column->addWidget(recentTitle);
    m_recent->setObjectName(QStringLiteral("startRecent"));
    m_recent->setWordWrap(true);
    m_recent->setAlternatingRowColors(true);
    // One click opens an entry, as a link does (or Enter on the current one).
    connect(m_recent, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        emit recentActivated(item->data(Qt::UserRole).toString());
    });
    auto *enter = new QAction(tr("Open the recent session picked in the list"), m_recent);
    enter->setShortcuts({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)});
    enter->setShortcutContext(Qt::WidgetShortcut);
    connect(enter, &QAction::triggered, this, [this] {
        if (const QListWidgetItem *item = m_recent->currentItem()) emit recentActivated(item->data(Qt::UserRole).toString());
    });
    m_recent->addAction(enter);
    m_recent->setCursor(Qt::PointingHandCursor);
    column->addWidget(m_recent, 1);
    m_noRecent->setText(tr("Nothing opened yet: what you open is listed here, with what its session holds."));
    m_noRecent->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_noRecent->setWordWrap(true);
    column->addWidget(m_noRecent);
    column->addStretch(0);
}

void StartPage::cover(QMainWindow *window) {
    m_window = window;
    window->installEventFilter(this);
    window->centralWidget()->installEventFilter(this);
    followCovered();
}

void StartPage::followCovered() {
    if (!m_window) return;
    // From under the menus and tool bars (where the timeline starts) to the status bar, the whole
    // width: the docks beside and under the timeline are covered too.
    const int top = m_window->centralWidget()->geometry().top();
    const int bottom = m_window->statusBar()->isVisible() ? m_window->statusBar()->geometry().top() : m_window->height();
    setGeometry(0, top, m_window->width(), std::max(0, bottom - top));
    raise();
}

bool StartPage::eventFilter(QObject *watched, QEvent *event) {
    if (event->type() == QEvent::Resize || event->type() == QEvent::Move || event->type() == QEvent::Show ||
        event->type() == QEvent::LayoutRequest)
        followCovered();
    return QWidget::eventFilter(watched, event);
}

void StartPage::setRecent(const QList<Recent> &recent) {
    m_recent->clear();
    for (const Recent &r : recent) {
        const QString second = r.summary.isEmpty() ? tr("not imported yet: opening imports it") : r.summary;
        auto *item = new QListWidgetItem(r.label + QLatin1Char('\n') + second, m_recent);
        item->setData(Qt::UserRole, r.entry);
        item->setToolTip(tr("Click to open %1").arg(r.entry));
    }
    m_recent->setVisible(!recent.isEmpty());
    m_noRecent->setVisible(recent.isEmpty());
}

QString StartPage::recentText(int row) const {
    const QListWidgetItem *item = m_recent->item(row);
    return item ? item->text() : QString();
}

} // namespace stepscope::gui

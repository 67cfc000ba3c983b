#pragma once
// StartPage takes the timeline's place while no session is open (issue #35, item 4): what Stepscope
// is, Open Folder…, Open File…, Open the Demo, "drop files here", the recent sessions with what each
// holds (click to open), and the keyboard shortcut card. It only asks: MainWindow opens.

#include <QWidget>

class QLabel;
class QMainWindow;
class QListWidget;
class QListWidgetItem;

namespace stepscope::gui {

class StartPage : public QWidget {
    Q_OBJECT
public:
    // One recent entry: what to open again, how the File menu names it, what its session holds.
    struct Recent {
        QString entry;
        QString label;
        QString summary;  // empty: its session is gone (opening imports it again)
    };

    explicit StartPage(QWidget *parent = nullptr);
    // Lies over the window's central widget and docks (it is a child of `window`), following their
    // geometry, so the window's layout is the same with and without a session and no empty pane shows.
    void cover(QMainWindow *window);
    void setRecent(const QList<Recent> &recent);
    QListWidget *recentList() const { return m_recent; }
    // The lines a recent entry shows (its label, then what it holds), for tests.
    QString recentText(int row) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void openFolderRequested();
    void openFileRequested();
    void openDemoRequested();
    void shortcutsRequested();
    void recentActivated(const QString &entry);

private:
    QListWidget *m_recent;
    QLabel *m_noRecent;
    void followCovered();
    QMainWindow *m_window = nullptr;
};

// A line saying what the session file `session` holds: runs, sources, size, when it was written.
// Empty when it cannot be read.
QString describeSessionFile(const QString &session);

} // namespace stepscope::gui

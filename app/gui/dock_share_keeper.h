#pragma once
// DockShareKeeper keeps a main window's split between its centre (the timeline) and the docks under
// it as the user left it (issue #35, item 3): a window made smaller squeezes the docks (the centre
// has a minimum share), and made larger again gives them back their part instead of giving all the
// new height to the centre. The share is what the user set by dragging the divider (remembered in
// the settings when `settingsKey` is not empty). It also widens the dividers between docks to a
// grip a user hits on the first try (the default style's is 2–4 px).

#include <QObject>
#include <QString>

class QMainWindow;
class QDockWidget;

namespace stepscope::gui {

class DockShareKeeper : public QObject {
    Q_OBJECT
public:
    DockShareKeeper(QMainWindow *window, QString settingsKey);
    // The centre's part of the height it shares with the bottom docks (0..1).
    double centreShare() const { return m_share; }
    // The layout was put back to the default: its split becomes the user's again.
    void remeasure();
    static constexpr int kSeparatorPx = 6;
    // On a short window the docks keep at least this height (a chart, a few findings), as far as the
    // centre's own minimum allows.
    static constexpr int kDockMinPx = 240;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QDockWidget *bottomDock() const;  // a bottom dock on screen (not a hidden tab)
    double measuredShare() const;     // -1 when there is none to measure
    void restore();

    QMainWindow *m_window;
    QString m_key;
    double m_share = 0.6;
    bool m_restoring = false;
    bool m_measured = false;  // the share was taken from the window at least once
};

} // namespace stepscope::gui

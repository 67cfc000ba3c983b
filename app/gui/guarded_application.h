#pragma once
// GuardedApplication: the GUI's error boundary. An exception that escapes an event handler (a paint,
// a slot reached from a queued signal) would end the process; here it is caught, counted and
// reported once — as a non-modal message in the window, and on stderr — and the event is dropped.
// The data-side checks (SessionStore, TimelineLodCache, …) are the first line; this is the last.

#include <QApplication>
#include <QString>

namespace stepscope::gui {

class GuardedApplication : public QApplication {
public:
    GuardedApplication(int &argc, char **argv) : QApplication(argc, argv) {}
    bool notify(QObject *receiver, QEvent *event) override;

    int caughtCount() const { return m_caught; }
    const QString &firstError() const { return m_firstError; }

private:
    void report(const QString &what);
    int m_caught = 0;
    QString m_firstError;
};

} // namespace stepscope::gui

#pragma once
// ImportProgressPanel is the strip MainWindow shows above the timeline while an import runs: which
// file, how far (percent), how fast (events/s once a file is done, else MB/s), about how long is
// left, and Cancel (Esc). It only formats what ImportWorker reports; it imports nothing itself.

#include <QElapsedTimer>
#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace stepscope::gui {

class ImportProgressPanel : public QFrame {
    Q_OBJECT
public:
    explicit ImportProgressPanel(QWidget *parent = nullptr);

    // Shows the panel for an import of `what` (a folder or file name).
    void begin(const QString &what);
    void update(qint64 done, qint64 total, const QString &file, qint64 eventsDone);
    // A line under the figures about what the window shows meanwhile (a first picture); begin() clears it.
    void setNote(const QString &note);
    // Rates and time left count from now (the import proper starts after a first picture).
    void restartClock() { m_clock.start(); }
    // The import is complete: the strip says the session is being opened (drawn at once, as the
    // window is busy until it is shown).
    void showOpening();
    void end();

    // For tests and screenshots: what the panel says now.
    QString fileText() const;  // the file name, whole (shown elided in the middle when narrow)
    QString detailText() const;
    QString noteText() const;
    int percent() const;
    // Every byte is read and the session is being finished (indexes, summaries): the bar is a busy
    // indicator instead of a 100 % that does not move.
    bool finishing() const;
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    QLabel *m_title;
    QLabel *m_file;
    QProgressBar *m_bar;
    QLabel *m_detail;
    QLabel *m_note;
    QPushButton *m_cancel;
    QElapsedTimer m_clock;
};

} // namespace stepscope::gui

#pragma once
// ImportWorker runs SessionImporter as a BackgroundJob with its own SQLite connection, reporting
// progress and finishing with a summary. cancel() makes the import roll back: the session is left
// exactly as it was, and finished() still reports it (so the import's own flag, not the job's token,
// is what the importers poll; the destructor raises it, then waits only for their next poll). Owned by MainWindow; one import at a time. With ImportOptions::reuseUnchanged
// only changed files are read; when the session cannot be brought up to date in place (a file of
// it is gone) the inputs go into a new file that replaces the session only when complete.
// With a preview size, a first picture comes first: the first events of each trace go into a
// separate preview file (previewPathFor), announced by previewReady() for the window to show while
// the import proper runs; the window removes it when the import ends.

#include "importers/logdir/session_importer.h"
#include "models/qt/background_job.h"

#include <QObject>
#include <QStringList>

#include <atomic>

namespace stepscope::gui {

struct ImportOutcome {
    ImportSummary summary;
    QString fatalError;  // the session itself could not be written
    // The inputs no longer matched the session (a file gone, another profile run now the newest):
    // they were imported into a fresh file that replaced the session.
    bool freshSession = false;
};

class ImportWorker : public QObject {
    Q_OBJECT
public:
    explicit ImportWorker(QObject *parent = nullptr);
    ~ImportWorker() override;

    bool busy() const { return m_busy; }
    // previewEvents > 0: a first picture of that many events per trace before the import proper.
    void start(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options = {},
               qint64 previewEvents = 0);
    void cancel() { m_cancel.cancel(); }
    bool cancelRequested() const { return m_cancel.cancelled(); }

signals:
    // Bytes read of all bytes to read, the file being read, events of the files finished so far.
    void progress(qint64 done, qint64 total, const QString &file, qint64 eventsDone);
    // The first picture is complete in `previewPath` (closed). Not sent when it failed or the
    // import was cancelled meanwhile.
    void previewReady(const QString &previewPath);
    void finished(const stepscope::gui::ImportOutcome &outcome);

private:
    CancelToken m_cancel;  // the running import's (each import gets a fresh one); before m_job, which joins it
    bool m_busy = false;
    BackgroundJob m_job;
};

// Removes a session file with its SQLite companions (-wal, -shm, -journal); no error when absent.
void removeSessionFiles(const std::string &file);
// Where the first picture of an import into `sessionPath` is written.
QString previewPathFor(const QString &sessionPath);

} // namespace stepscope::gui

Q_DECLARE_METATYPE(stepscope::gui::ImportOutcome)

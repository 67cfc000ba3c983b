#pragma once
// ImportWorker runs SessionImporter on a worker thread with its own SQLite connection, reporting
// progress and finishing with a summary. cancel() makes the import roll back: the session is left
// exactly as it was. Owned by MainWindow; one import at a time.

#include "importers/logdir/session_importer.h"

#include <QObject>
#include <QStringList>
#include <QThread>

#include <atomic>

namespace stepscope::gui {

struct ImportOutcome {
    ImportSummary summary;
    QString fatalError;  // the session itself could not be written
};

class ImportWorker : public QObject {
    Q_OBJECT
public:
    explicit ImportWorker(QObject *parent = nullptr);
    ~ImportWorker() override;

    bool busy() const { return m_busy; }
    void start(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options = {});
    void cancel() { m_cancel = true; }

signals:
    void progress(qint64 done, qint64 total, const QString &file);
    void finished(const stepscope::gui::ImportOutcome &outcome);

private:
    QThread m_thread;
    std::atomic<bool> m_cancel{false};
    bool m_busy = false;
};

} // namespace stepscope::gui

Q_DECLARE_METATYPE(stepscope::gui::ImportOutcome)

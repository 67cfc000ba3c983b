#include "app/gui/import_worker.h"

#include "models/timeline/timeline_lod_writer.h"

#include <QMetaObject>
#include <QPointer>

namespace stepscope::gui {

ImportWorker::ImportWorker(QObject *parent) : QObject(parent) {
    qRegisterMetaType<ImportOutcome>("stepscope::gui::ImportOutcome");
    m_thread.setObjectName("stepscope-import");
    m_thread.start();
}

ImportWorker::~ImportWorker() {
    m_cancel = true;
    m_thread.quit();
    m_thread.wait();
}

void ImportWorker::start(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options) {
    if (m_busy) return;
    m_busy = true;
    m_cancel = false;
    std::vector<std::filesystem::path> paths;
    for (const QString &p : inputs) paths.emplace_back(p.toStdString());
    const std::string session = sessionPath.toStdString();
    QPointer<ImportWorker> self(this);
    // A context object living in the worker thread runs the import there.
    auto *context = new QObject;
    context->moveToThread(&m_thread);
    QMetaObject::invokeMethod(context, [this, self, context, paths, session, options] {
        ImportOutcome outcome;
        try {
            SessionStore store(session);
            ImporterRegistry registry;
            SessionImporter importer(store, registry);
            qint64 lastEmit = -1;
            outcome.summary = importer.run(paths, &m_cancel, [&](int64_t done, int64_t total, const std::string &file) {
                const qint64 bucket = total > 0 ? done * 200 / total : 0;  // at most ~200 signals
                if (bucket == lastEmit) return;
                lastEmit = bucket;
                emit progress(done, total, QString::fromStdString(file));
            }, options);
            // Precompute the timeline's level-of-detail cache here, off the GUI thread.
            if (!outcome.summary.cancelled) TimelineLodWriter(store).ensure();
        } catch (const std::exception &e) {
            outcome.fatalError = QString::fromStdString(e.what());
        }
        context->deleteLater();
        QMetaObject::invokeMethod(this, [this, self, outcome] {
            if (!self) return;
            m_busy = false;
            emit finished(outcome);
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

} // namespace stepscope::gui

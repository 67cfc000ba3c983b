#include "app/gui/import_worker.h"

#include "models/store/session_reader.h"
#include "models/analysis/service/analysis_service.h"

#include <QMetaObject>

namespace stepscope::gui {

void removeSessionFiles(const std::string &file) {
    std::error_code ec;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(file + suffix, ec);
}

QString previewPathFor(const QString &sessionPath) { return sessionPath + QStringLiteral(".preview"); }

namespace {
// The first picture: the first `events` events of each trace, with its level-of-detail cache, in
// its own file. False when it holds no trace events to show (or failed: the import proper still runs).
bool importPreview(const std::vector<std::filesystem::path> &paths, const std::string &file, ImportOptions options,
                   qint64 events, const CancelToken &cancel) {
    removeSessionFiles(file);  // a leftover of an interrupted earlier attempt
    options.reuseUnchanged = false;
    options.previewEvents = events;
    options.sourceDone = {};
    try {
        SessionStore store(file);
        ImporterRegistry registry;
        const ImportSummary summary = SessionImporter(store, registry).run(paths, cancel, {}, options);
        // Only metrics (the traces are of formats read whole): no picture worth showing.
        if (summary.cancelled || !summary.anyImported() || SessionReader(store).sliceCount() == 0) return false;
        AnalysisService::finishImport(store, false);  // its level-of-detail cache; a part is not analysed
        return true;
    } catch (const std::exception &) {
        return false;  // whatever went wrong, the import proper says it
    }
}
} // namespace

ImportWorker::ImportWorker(QObject *parent) : QObject(parent) {
    qRegisterMetaType<ImportOutcome>("stepscope::gui::ImportOutcome");
}

ImportWorker::~ImportWorker() {
    m_cancel.cancel();  // the import rolls back at its next poll; m_job's destructor waits for that
}

void ImportWorker::start(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options,
                         qint64 previewEvents) {
    if (m_busy) return;
    m_busy = true;
    m_cancel = CancelToken();
    std::vector<std::filesystem::path> paths;
    for (const QString &p : inputs) paths.emplace_back(p.toStdString());
    const std::string session = sessionPath.toStdString();
    m_job.start([this, cancel = m_cancel, paths, session, options, previewEvents](const CancelToken &) -> BackgroundJob::Deliver {
        if (previewEvents > 0) {
            const QString preview = previewPathFor(QString::fromStdString(session));
            if (importPreview(paths, preview.toStdString(), options, previewEvents, cancel) && !cancel.cancelled())
                QMetaObject::invokeMethod(this, [this, preview] { emit previewReady(preview); }, Qt::QueuedConnection);
        }
        ImportOutcome outcome;
        int64_t events = 0;
        qint64 lastEmit = -1;
        auto importInto = [&](const std::string &file, ImportOptions opts) {
            SessionStore store(file);
            ImporterRegistry registry;
            SessionImporter importer(store, registry);
            opts.sourceDone = [&](const SourceSummary &s) { events += s.events; };
            ImportSummary summary = importer.run(paths, cancel, [&](int64_t done, int64_t total, const std::string &f) {
                const qint64 bucket = total > 0 ? done * 200 / total : 0;  // at most ~200 signals
                if (bucket == lastEmit) return;
                lastEmit = bucket;
                emit progress(done, total, QString::fromStdString(f), events);
            }, opts);
            // The work after an import, here off the GUI thread: the timeline's level-of-detail cache
            // (the window analyses what it shows, and stores it).
            if (!summary.cancelled && !summary.needsFreshSession) AnalysisService::finishImport(store, false);
            return summary;
        };
        const std::string fresh = session + ".fresh";
        try {
            outcome.summary = importInto(session, options);
            if (outcome.summary.needsFreshSession) {
                removeSessionFiles(fresh);  // a leftover of an interrupted earlier attempt
                ImportOptions all = options;
                all.reuseUnchanged = false;
                outcome.summary = importInto(fresh, all);
                if (outcome.summary.cancelled) {
                    removeSessionFiles(fresh);
                } else {
                    // Both stores are closed (checkpointed) here: only the main files matter.
                    removeSessionFiles(session);
                    std::filesystem::rename(fresh, session);
                    removeSessionFiles(fresh);
                    outcome.freshSession = true;
                }
            }
        } catch (const std::exception &e) {
            outcome.fatalError = QString::fromStdString(e.what());
            removeSessionFiles(fresh);
        }
        return [this, outcome] {
            m_busy = false;
            emit finished(outcome);
        };
    });
}

} // namespace stepscope::gui

// MainWindow: opening things — sessions, folders and files (imported on the ImportWorker, re-using
// the session made from the same inputs when they did not change), cancel, Recent.

#include "app/gui/import_progress_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/start_page.h"
#include "app/synth/synthetic_profile_generator.h"

#include "importers/xplane/profile_run_selector.h"
#include "views/analysis/findings_view.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"

#include <algorithm>

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <algorithm>
#include <utility>

namespace stepscope::gui {

namespace {
constexpr int kMaxRecent = 10;

// One spelling per file or folder: symbolic links and "..", "." resolved where the path exists.
QString canonical(const QString &path) {
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : c;
}
} // namespace

QString MainWindow::sessionPathFor(const QStringList &inputs) {
    QStringList names;
    for (const QString &p : inputs) names << (p.startsWith(QStringLiteral("run:")) ? p : canonical(p));
    names.sort();
    const QByteArray hash = QCryptographicHash::hash(names.join('\n').toUtf8(), QCryptographicHash::Sha1).toHex().left(10);
    // ~/.local/share/stepscope/sessions (AppLocalDataLocation doubled the name: Stepscope/Stepscope).
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/stepscope/sessions";
    QDir().mkpath(dir);
    QString base = QFileInfo(canonical(inputs.value(0))).fileName();
    if (base.isEmpty()) base = "session";
    return dir + "/" + base + "-" + QString::fromLatin1(hash) + ".stepscope";
}

void MainWindow::openPaths(const QStringList &paths) {
    if (paths.isEmpty()) return;
    if (paths.size() == 1 && QFileInfo(paths[0]).suffix() == "stepscope") {
        openSession(paths[0]);
        return;
    }
    for (const QString &p : paths) {
        if (!QFileInfo::exists(p)) {
            m_lastError = tr("%1: no such file or folder").arg(p);
            QMessageBox *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open"), m_lastError, QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            return;
        }
    }
    std::optional<ImportOptions> options = chooseProfileRun(paths);
    if (!options) return;
    // Opening the same inputs again re-uses their session: only new or changed files are read.
    options->reuseUnchanged = true;
    // Each profile run of a logdir gets a session of its own, so switching runs never mixes them.
    QStringList key = paths;
    if (!options->profileRun.empty()) key << QStringLiteral("run:") + QString::fromStdString(options->profileRun);
    const QString session = sessionPathFor(key);
    // Recent gets what the user opened: the folder, the file, or the files together.
    QStringList opened;
    for (const QString &p : paths) opened << canonical(p);
    m_pendingRecent = opened.join('\n');
    m_sessionLabels.insert(session, recentLabel(m_pendingRecent));  // the window names what was opened, not its session file
    startImport(session, paths, *options);
}

void MainWindow::addToSession(const QStringList &paths) {
    if (!m_session->isOpen()) {
        openPaths(paths);
        return;
    }
    m_pendingRecent.clear();  // the session is in Recent already (or is a folder's session)
    startImport(m_session->path(), paths);
}

void MainWindow::openSession(const QString &file, bool rememberInRecent) { showSessionFile(file, rememberInRecent, {}); }

QString MainWindow::displayName(const QString &session) const { return m_sessionLabels.value(session, session); }

void MainWindow::showSessionFile(const QString &file, bool rememberInRecent, const QString &previewNote) {
    // A first picture that cannot be opened is not shown, and what is on screen stays; the import
    // proper says what is wrong with the inputs.
    if (!previewNote.isEmpty()) {
        try {
            SessionStore probe(file.toStdString(), SessionStore::Mode::ReadOnly);
        } catch (const std::exception &) {
            return;
        }
    }
    // Nothing picked in the previous session means anything in this one; the zoom history is
    // emptied before the new extent arrives (setFullRange keeps it when the extent is the same).
    m_time->clearSelection();
    m_time->setFullRange({});
    try {
        // A session the user may not change (someone else's file, a read-only folder) opens
        // read-only: it can be viewed and exported, and nothing tries to write it.
        // A headless window (export, evidence pack) never writes the session it is given: what it
        // computes (analysis, level of detail) stays in memory.
        const QFileInfo info(file);
        const bool writable = m_mode != Mode::Headless && previewNote.isEmpty() &&
                              (!info.exists() || (info.isWritable() && QFileInfo(info.absolutePath()).isWritable()));
        m_session->setStore(std::make_unique<SessionStore>(
            file.toStdString(), writable ? SessionStore::Mode::ReadWrite : SessionStore::Mode::ReadOnly), previewNote);
        if (rememberInRecent) addRecent(canonical(file));
    } catch (const std::exception &e) {
        // A session that failed half-way through loading is closed again: no view keeps reading it.
        try {
            m_session->close();
        } catch (const std::exception &) {
        }
        m_lastError = QString::fromStdString(e.what());
        QMessageBox *box = new QMessageBox(QMessageBox::Critical, tr("Cannot open session"), m_lastError, QMessageBox::Ok, this);
        box->setTextFormat(Qt::PlainText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    resetPerSessionState();
}

void MainWindow::resetPerSessionState() {
    m_details->showSlice(SliceDetails{});  // an invalid slice: the Slice tab is emptied
    m_time->clearSelection();              // the Range tab and the range selection
    m_timeline->searchField()->clear();    // clears the hits too
    m_timeline->resetStepBox();  // the step the ranks came back aligned at, else the first step
}

std::optional<ImportOptions> MainWindow::chooseProfileRun(const QStringList &inputs) {
    std::vector<std::filesystem::path> files;
    for (const QString &in : inputs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(in.toStdString(), ec)) continue;
        for (auto it = std::filesystem::recursive_directory_iterator(in.toStdString(), ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec)) files.push_back(it->path());
    }
    const ProfileRunChoice choice = ProfileRunSelector::choose(files);
    if (choice.runs.size() < 2) return ImportOptions{};
    // Newest (the default choice) first, then the others from newest to oldest.
    QStringList runs;
    for (const std::string &r : choice.chosen) runs << QString::fromStdString(r);
    for (auto it = choice.runs.rbegin(); it != choice.runs.rend(); ++it)
        if (!runs.contains(QString::fromStdString(*it))) runs << QString::fromStdString(*it);
    QString picked;
    if (m_runChooser) {
        picked = m_runChooser(runs);
    } else {
        bool ok = false;
        QStringList items = runs;
        items << tr("all runs");
        const QString item = QInputDialog::getItem(this, tr("Profile run"),
            tr("This logdir holds %n profile runs. Import which one?", nullptr, int(runs.size())), items, 0, false, &ok);
        if (!ok) return std::nullopt;
        picked = item == tr("all runs") ? QStringLiteral("all") : item;
    }
    if (picked.isEmpty()) return std::nullopt;
    return ImportOptions{picked.toStdString()};
}

void MainWindow::startImport(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options) {
    if (m_worker->busy()) {
        showStatus(tr("An import is already running"), 3000);
        return;
    }
    m_previousSession = m_session->isOpen() ? m_session->path() : QString();
    m_pendingIsNew = !QFileInfo::exists(sessionPath);
    // The worker writes through its own connection; the view's connection is released meanwhile
    // when it is the same file, so the worker is the only writer.
    if (m_session->isOpen() && m_session->path() == sessionPath) m_session->close();
    m_pendingSession = sessionPath;
    m_pendingInputs = inputs;
    QStringList names;
    for (const QString &p : inputs) names << QFileInfo(p).fileName();
    m_progressPanel->begin(names.join(QStringLiteral(", ")));
    m_findings->setImporting(names.join(QStringLiteral(", ")));
    const qint64 previewEvents = m_pendingIsNew ? previewEventsFor(inputs) : 0;
    m_previewPath = previewEvents > 0 ? previewPathFor(sessionPath) : QString();
    m_worker->start(sessionPath, inputs, options, previewEvents);
}

qint64 MainWindow::previewEventsFor(const QStringList &inputs) const {
    // Small inputs import in about the time a first picture takes: no picture for them.
    qint64 bytes = 0;
    for (const QString &in : inputs) {
        std::error_code ec;
        const std::filesystem::path p = in.toStdString();
        if (!std::filesystem::is_directory(p, ec)) {
            bytes += qint64(std::filesystem::file_size(p, ec));
            continue;
        }
        for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
             !ec && it != std::filesystem::recursive_directory_iterator() && bytes < m_previewMinBytes; it.increment(ec))
            if (it->is_regular_file(ec)) bytes += qint64(it->file_size(ec));
    }
    return bytes >= m_previewMinBytes ? m_previewEvents : 0;
}

void MainWindow::onPreviewReady(const QString &previewPath) {
    // Too late (the import ended, or is being cancelled): not shown; the import's end removes it.
    if (previewPath != m_previewPath || !m_worker->busy() || m_worker->cancelRequested()) return;
    showSessionFile(previewPath, false, tr("Importing: the analysis follows when the import is complete"));
    // The import proper starts now: its rate and time left count from here.
    m_progressPanel->restartClock();
    if (!m_session->isPreview()) return;  // it could not be opened: the import goes on
    m_progressPanel->setNote(tr("Showing the first %L1 events while the rest is imported")
                                 .arg(SessionReader(*m_session->store()).sliceCount()));
    emit previewShown();
}

void MainWindow::onImportFinished(const ImportOutcome &outcome) {
    // The strip says what the window does until the session is shown (drawn now: the window is busy
    // until the views are loaded), then goes with the first picture: no empty band meanwhile.
    m_progressPanel->showOpening();
    m_sessionLabel->setText(tr("Opening the imported session…"));
    m_sessionLabel->repaint();
    m_findings->setImporting({});
    const ImportSummary &sum = outcome.summary;
    const bool failed = sum.cancelled || !outcome.fatalError.isEmpty();
    // The first picture, if one was shown, gives way to the whole import (the user's zoom kept
    // when it lies inside it) or, on failure, to what was open before; its file goes.
    const QString preview = std::exchange(m_previewPath, QString());
    const bool previewShownNow = !preview.isEmpty() && m_session->isOpen() && m_session->path() == preview;
    const NsRange previewZoom = previewShownNow && m_time->range() != m_time->fullRange() ? m_time->range() : NsRange{};
    // Nothing read at all (a random binary, a folder of unknown files): as a failure, the session
    // that was open stays and nothing goes into Recent; the dialog below says why.
    bool anyRead = !sum.unchanged.empty();
    for (const SourceSummary &s : sum.sources) anyRead = anyRead || s.status != SourceStatus::Failed;
    const bool nothingRead = !failed && !anyRead;
    if (failed || nothingRead) {
        // Back to what was open before: a session file this import created is removed again (it
        // holds nothing), and nothing goes into Recent.
        if (m_pendingIsNew) removeSessionFiles(m_pendingSession.toStdString());
        const bool sameSession = m_previousSession == m_pendingSession;
        if (!m_previousSession.isEmpty() && (!m_session->isOpen() || m_session->path() != m_previousSession))
            openSession(m_previousSession, false);
        else if (previewShownNow)
            m_session->close();
        const QString shown = m_previousSession.isEmpty() ? QString() : displayName(m_previousSession);
        if (sum.cancelled) {
            showStatus(shown.isEmpty() ? tr("Import cancelled: nothing was imported, no session is open")
                       : sameSession   ? tr("Import cancelled: %1 is open as it was before").arg(shown)
                                       : tr("Import cancelled: nothing was imported; %1 is still open").arg(shown));
        } else if (nothingRead) {
            showStatus(shown.isEmpty() ? tr("Nothing could be read from %1").arg(m_pendingInputs.join(", "))
                                       : tr("Nothing could be read from %1; %2 is still open").arg(m_pendingInputs.join(", "), shown));
        } else {
            showStatus(tr("Import failed: nothing was imported"));
        }
    } else {
        openSession(m_pendingSession, false);
        const NsRange full = m_time->fullRange();
        if (previewZoom.valid() && full.valid() && previewZoom.start >= full.start && previewZoom.end <= full.end)
            m_time->setRange(previewZoom);
        if (!m_pendingRecent.isEmpty()) addRecent(m_pendingRecent);
        const int changed = int(sum.sources.size());
        const int kept = int(sum.unchanged.size());
        if (changed == 0 && kept > 0)
            showStatus(tr("Opened the earlier import: the %n file(s) did not change, nothing was re-imported", nullptr, kept));
        else if (kept > 0)
            showStatus(tr("Re-imported %n changed file(s) (%1 events); %2 unchanged kept", nullptr, changed)
                           .arg(sum.events()).arg(kept));
        else if (changed > 0)
            showStatus(tr("Imported %n file(s), %1 events", nullptr, changed).arg(sum.events()));
    }
    m_progressPanel->end();
    refreshStatus();  // the session label says what is open (not "Opening…") whatever happened
    if (!preview.isEmpty()) removeSessionFiles(preview.toStdString());  // closed above, if it was open
    QStringList problems;
    if (!outcome.fatalError.isEmpty()) problems << outcome.fatalError;
    for (const SourceSummary &s : sum.sources)
        if (s.status != SourceStatus::Ok)
            problems << tr("%1: %2%3").arg(QString::fromStdString(s.path),
                                           s.status == SourceStatus::Failed ? tr("could not be read") : tr("read partially"),
                                           s.message.empty() ? QString() : ": " + QString::fromStdString(s.message));
    if (sum.sources.empty() && sum.unchanged.empty() && !sum.cancelled && outcome.fatalError.isEmpty()) {
        if (sum.skipped.size() == 1)  // one file: say why it was skipped
            problems << tr("%1 was not imported: %2")
                            .arg(QString::fromStdString(sum.skipped[0].path.string()), QString::fromStdString(sum.skipped[0].reason));
        else
            problems << tr("No readable profile or metrics file among %1 (%n file(s) skipped; the Import log says why)", nullptr,
                           int(sum.skipped.size())).arg(m_pendingInputs.join(", "));
    }
    m_lastError = problems.join('\n');
    if (!problems.isEmpty()) {
        // Non-modal so a long import never blocks the window behind a dialog.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Import problems"), problems.join("\n\n"), QMessageBox::Ok, this);
        box->setTextFormat(Qt::PlainText);  // file names are shown as text, never as markup
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit importFinished(problems.isEmpty() && !sum.cancelled);
}

QStringList MainWindow::recentFiles() {
    // Older versions stored the same folder under several spellings, and the sessions of cancelled
    // imports: each thing once, and only what still exists. An entry of several inputs holds their
    // paths one per line.
    QStringList out;
    for (const QString &entry : QSettings().value("recentFiles").toStringList()) {
        QStringList parts;
        for (const QString &p : entry.split('\n', Qt::SkipEmptyParts)) parts << canonical(p);
        if (parts.isEmpty() || !std::all_of(parts.begin(), parts.end(), [](const QString &p) { return QFileInfo::exists(p); }))
            continue;
        const QString c = parts.join('\n');
        if (!out.contains(c)) out << c;
    }
    return out;
}

QString MainWindow::recentLabel(const QString &entry) {
    const QStringList parts = entry.split('\n', Qt::SkipEmptyParts);
    if (parts.size() == 1) return parts[0];
    QStringList names;
    for (const QString &p : parts) names << QFileInfo(p).fileName();
    return names.join(QStringLiteral(" + ")) + QStringLiteral("  (") + QFileInfo(parts[0]).absolutePath() + QStringLiteral(")");
}

void MainWindow::addRecent(const QString &path) {
    if (m_mode == Mode::Headless) return;
    QStringList parts;
    for (const QString &p : path.split('\n', Qt::SkipEmptyParts)) parts << canonical(p);
    const QString entry = parts.join('\n');
    QStringList recent = recentFiles();
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) recent.removeLast();
    QSettings().setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString &entry : recent) {
        QAction *a = m_recentMenu->addAction(recentLabel(entry), this, [this, entry] { openPaths(entry.split('\n')); });
        a->setToolTip(entry);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
    updateStartPage();
}

void MainWindow::updateStartPage() {
    if (!m_startPage) return;
    const bool start = !m_session->isOpen();
    m_startPage->setVisible(start);
    if (start) m_startPage->raise();
    if (!start) return;
    QList<StartPage::Recent> recent;
    // A headless window (exports) never reads the user's recent sessions.
    for (const QString &entry : m_mode == Mode::Interactive ? recentFiles() : QStringList()) {
        const QStringList paths = entry.split('\n');
        const QString session = paths.size() == 1 && QFileInfo(paths[0]).suffix() == "stepscope" ? paths[0] : sessionPathFor(paths);
        recent.append({entry, recentLabel(entry), describeSessionFile(session)});
    }
    m_startPage->setRecent(recent);
}

void MainWindow::openDemo() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/stepscope/demo";
    const std::filesystem::path root = dir.toStdString();
    const std::filesystem::path trace = root / "plugins/profile/demo/demo.pt.trace.json.gz", metrics = root / "nvidia-smi.csv";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(trace, ec) || !std::filesystem::is_regular_file(metrics, ec)) {
        // The recipe of the bundled demo (resources/demo/demo.args).
        synth::SyntheticProfileOptions o;
        o.steps = 40;
        o.bottleneck = synth::Bottleneck::Input;
        o.seed = 7;
        o.profileMemory = true;
        try {
            synth::SyntheticProfileGenerator(o).generate(trace, metrics);
        } catch (const std::exception &e) {
            m_lastError = tr("The demo could not be written to %1: %2").arg(dir, QString::fromStdString(e.what()));
            showStatus(m_lastError);
            return;
        }
    }
    openPaths({dir});
}

QString MainWindow::lastFolder() {
    const QString dir = QSettings().value("lastFolder").toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void MainWindow::rememberFolder(const QString &picked) {
    const QFileInfo info(picked);
    QSettings().setValue("lastFolder", info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

} // namespace stepscope::gui

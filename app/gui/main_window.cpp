#include "app/gui/main_window.h"

#include "app/gui/annotation_docks.h"
#include "app/gui/compare_window.h"
#include "app/gui/dock_share_keeper.h"
#include "app/gui/export_dialog.h"
#include "app/gui/import_progress_panel.h"
#include "app/gui/start_page.h"
#include "app/gui/view_registry.h"

#include "models/analysis/service/analysis_model.h"
#include "views/analysis/findings_view.h"
#include "views/analysis/op_stats_view.h"
#include "views/job/job_view.h"
#include "views/steps/step_time_view.h"
#include "views/timeline/capture_picker.h"
#include "views/timeline/keyboard_shortcuts.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"
#include "models/annotations/annotation_model.h"
#include "models/metrics/metric_series_model.h"
#include "views/utilization/clock_offset_dialog.h"


#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QSpinBox>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace stepscope::gui {

MainWindow::MainWindow(QWidget *parent, Mode mode)
    : QMainWindow(parent), m_mode(mode), m_session(new SessionModel(this)), m_time(new TimeRangeController(this)),
      m_worker(new ImportWorker(this)) {
    setWindowTitle(tr("Stepscope"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AnimatedDocks);
    buildDocks();
    buildMenus();
    buildStatusBar();
    buildToolBar();
    connect(m_worker, &ImportWorker::progress, m_progressPanel, &ImportProgressPanel::update);
    connect(m_progressPanel, &ImportProgressPanel::cancelRequested, this, [this] {
        m_worker->cancel();
        m_progressPanel->cancelButton()->setEnabled(false);
        m_progressPanel->cancelButton()->setText(tr("Cancelling…"));
    });
    connect(m_worker, &ImportWorker::finished, this, &MainWindow::onImportFinished);
    connect(m_worker, &ImportWorker::previewReady, this, &MainWindow::onPreviewReady);
    connect(m_session, &SessionModel::sessionChanged, this, [this] {
        const NsRange extent = m_session->extent();
        m_time->setFullRange(extent.valid() ? extent : NsRange{});
        // The ranks come back aligned if the user left them so (a GUI habit: never in headless pictures).
        if (m_mode == Mode::Interactive) m_timeline->timeline()->restoreAlignment();
        refreshStatus();
    });

    // 1400×900, or the screen's room when it is smaller (a 1280×720 screen gets the whole of it).
    QSize size(1400, 900);
    if (const QScreen *screen = QGuiApplication::primaryScreen(); screen && m_mode == Mode::Interactive)
        size = size.boundedTo(screen->availableGeometry().size());
    resize(size);
    m_defaultLayout = saveState();
    if (m_mode == Mode::Interactive) {
        QSettings settings;
        restoreGeometry(settings.value("window/geometry").toByteArray());
        restoreState(settings.value("window/state").toByteArray());
    }
    // The window may be made smaller in one step (a maximised window restored onto a 1280×720
    // screen): its minimum is not the sum of its panes' minimums at the old size (the timeline's
    // minimum follows the window's height, see resizeEvent), but a fixed size every pane works at.
    layout()->setSizeConstraint(QLayout::SetNoConstraint);
    setMinimumSize(800, 540);
    m_docksKeeper = new DockShareKeeper(this, m_mode == Mode::Interactive ? QStringLiteral("window/centreShare") : QString());
    rebuildRecentMenu();
    refreshStatus();
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addDock(const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area) {
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);  // needed for saveState()
    // Panels scroll rather than squash (and never take the timeline's share): a panel whose
    // contents grow (the Range table after a selection) gets a scroll bar, not more height.
    auto *scroll = new QScrollArea(dock);
    scroll->setObjectName(objectName + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(widget);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    return dock;
}

ViewModels MainWindow::viewModels() {
    return ViewModels{SessionModels::of(m_session, m_time), metrics(), m_timeline ? m_timeline->timeline() : nullptr,
                      m_mode == Mode::Headless};
}

QDockWidget *MainWindow::dockOf(const QString &viewName) const {
    const ViewEntry *entry = findViewEntry(viewName);
    return entry ? findChild<QDockWidget *>(entry->dockName) : nullptr;
}

void MainWindow::buildDocks() {
    // The timeline is the centre; every other view docks around it (view_registry.cpp says where).
    m_timeline = static_cast<TimelinePaneView *>(createView("timeline", this));
    m_views.insert(QStringLiteral("timeline"), m_timeline);
    // The import progress panel sits above the timeline, where the eye is, while an import runs.
    auto *centre = m_centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    m_progressPanel = new ImportProgressPanel(centre);
    centreLayout->addWidget(m_progressPanel);
    centreLayout->addWidget(m_timeline, 1);
    // Until a session is open, a start page is where the timeline will be.
    m_startPage = new StartPage(this);
    connect(m_startPage, &StartPage::recentActivated, this, [this](const QString &entry) { openPaths(entry.split('\n')); });
    connect(m_startPage, &StartPage::openDemoRequested, this, &MainWindow::openDemo);
    connect(m_startPage, &StartPage::shortcutsRequested, this, [this] { KeyboardShortcuts::showDialog(this); });
    setCentralWidget(centre);

    // The docks, in the table's order. (A dock is split before others are tabified with it:
    // splitting a tabbed dock would only add another tab.)
    const ViewModels models = viewModels();
    for (const ViewEntry &entry : viewEntries()) {
        if (entry.placement == DockPlacement::Centre) continue;
        QWidget *view = entry.create(models, this);
        m_views.insert(entry.name, view);
        QDockWidget *dock = addDock(viewTitle(entry), entry.dockName, view, entry.area);
        if (entry.placement == DockPlacement::Beside) splitDockWidget(dockOf(entry.relative), dock, Qt::Horizontal);
        if (entry.placement == DockPlacement::TabWith) tabifyDockWidget(dockOf(entry.relative), dock);
    }
    m_steps = qobject_cast<StepTimeView *>(m_views.value("steps"));
    m_details = qobject_cast<SliceDetailsView *>(m_views.value("details"));
    m_findings = qobject_cast<FindingsView *>(m_views.value("findings"));
    m_logDock = dockOf(QStringLiteral("log"));
    wireViews();
    dockOf(QStringLiteral("session"))->raise();
    dockOf(QStringLiteral("steps"))->raise();
    resizeDocks({dockOf(QStringLiteral("session"))}, {400}, Qt::Horizontal);
    resizeDocks({dockOf(QStringLiteral("steps"))}, {260}, Qt::Vertical);
    resizeDocks({dockOf(QStringLiteral("steps")), dockOf(QStringLiteral("findings"))}, {900, 500}, Qt::Horizontal);
    m_annotations = new AnnotationDocks(this, m_session, m_time, m_timeline->timeline());
    m_startPage->cover(this);
}

void MainWindow::wireViews() {
    TimelineView *timeline = m_timeline->timeline();
    // Selecting a slice brings its details forward.
    QDockWidget *detailsDock = dockOf(QStringLiteral("details"));
    connect(timeline, &TimelineView::sliceSelected, detailsDock, [detailsDock] { detailsDock->raise(); });
    // Selecting an op highlights its occurrences in the timeline (its search finds them by name).
    connect(qobject_cast<OpStatsView *>(m_views.value("ops")), &OpStatsView::opSelected, m_timeline,
            [this](const QString &n, int) { m_timeline->search(n); });
    // A heatmap cell brings that rank's run to the top of the timeline at that step, and the step
    // chart and findings follow that rank; aligning the ranks at a step is the timeline's view,
    // chosen from either side.
    auto *job = qobject_cast<JobView *>(m_views.value("job"));
    connect(job, &JobView::cellShown, timeline, [timeline](qint64 runId, NsRange r) { timeline->revealRun(runId, r); });
    connect(job, &JobView::cellShown, m_steps, [this](qint64 runId) { m_steps->showRun(runId); });
    connect(job, &JobView::cellShown, m_findings, [this](qint64 runId) { m_findings->showRun(runId); });
    connect(job, &JobView::alignRequested, timeline, [timeline](const QHash<qint64, qint64> &starts, qint64 step) {
        timeline->alignRuns(starts, step);
    });
    connect(job, &JobView::alignmentLeft, timeline, [timeline] { timeline->clearAlignment(); });
    // A capture picked in the timeline's Capture box: the step chart and findings show its first run.
    connect(m_timeline->capturePicker(), &CapturePicker::captureShown, this, [this](const std::vector<int64_t> &runs) {
        if (runs.empty()) return;
        m_steps->showRun(runs.front());
        m_findings->showRun(runs.front());
    });
    connect(timeline, &TimelineView::alignmentChanged, job, &JobView::showAlignment);
    connect(job, &JobView::compactRequested, timeline, &TimelineView::setCompactRanks);
    connect(timeline, &TimelineView::compactRanksChanged, job, &JobView::showCompact);
    job->showCompact(timeline->compactRanks());
    job->showAlignment(timeline->alignedStep().has_value(), timeline->alignedStep().value_or(0));
}

QStringList MainWindow::viewNames() {
    QStringList names;
    for (const ViewEntry &e : viewEntries())
        if (e.exportable) names << e.name;
    return names;
}

QWidget *MainWindow::createView(const QString &name, QWidget *parent) {
    const ViewEntry *entry = findViewEntry(name);
    return entry && entry->exportable ? entry->create(viewModels(), parent) : nullptr;
}

MetricSeriesModel *MainWindow::metrics() {
    if (!m_metrics) m_metrics = new MetricSeriesModel(m_session, this);  // one per window, shared
    return m_metrics;
}

QWidget *MainWindow::viewWidget(const QString &name) const {
    return m_views.value(name == QLatin1String("central") ? QStringLiteral("timeline") : name, nullptr);
}

void MainWindow::buildMenus() {
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *openFolder = file->addAction(tr("Open &Folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open profile folder"), lastFolder());
        if (dir.isEmpty()) return;
        rememberFolder(QFileInfo(dir).absolutePath());
        openPaths({dir});
    });
    QAction *openFile = file->addAction(tr("&Open File…"), QKeySequence::Open, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open trace or metrics files"), lastFolder());
        if (files.isEmpty()) return;
        rememberFolder(files[0]);
        openPaths(files);
    });
    connect(m_startPage, &StartPage::openFolderRequested, openFolder, &QAction::trigger);
    connect(m_startPage, &StartPage::openFileRequested, openFile, &QAction::trigger);
    file->addAction(tr("Open &Demo"), this, &MainWindow::openDemo);
    file->addAction(tr("Open &Session…"), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open session"), lastFolder(), tr("Stepscope sessions (*.stepscope)"));
        if (f.isEmpty()) return;
        rememberFolder(f);
        openSession(f);
    });
    m_sessionActions << file->addAction(tr("&Add Files to Session…"), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add files to the session"), lastFolder());
        if (files.isEmpty()) return;
        rememberFolder(files[0]);
        addToSession(files);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_sessionActions << file->addAction(tr("&Clock Offsets…"), this, [this] {
        if (!m_session->isOpen()) return;
        ClockOffsetDialog dialog(m_session, this);
        dialog.exec();
    });
    file->addSeparator();
    QMenu *compare = file->addMenu(tr("Co&mpare With"));
    compare->setToolTip(tr("The open session is the base; pick the run after the change"));
    m_sessionActions << compare->menuAction();
    compare->addAction(tr("&Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Compare with a logdir"), lastFolder());
        if (dir.isEmpty()) return;
        rememberFolder(QFileInfo(dir).absolutePath());
        compareWith(dir);
    });
    compare->addAction(tr("&File or Session…"), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Compare with a trace or session"), lastFolder());
        if (f.isEmpty()) return;
        rememberFolder(f);
        compareWith(f);
    });
    m_sessionActions << file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, &MainWindow::saveSessionAs);
    m_sessionActions << file->addAction(tr("Export &View…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                                        [this] { exportPicture(QStringLiteral("timeline")); });
    m_sessionActions << file->addAction(tr("&Export Window…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                                        [this] { exportPicture(QStringLiteral("window")); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *back = m_viewMenu->addAction(tr("Zoom &Back"), QKeySequence(Qt::ALT | Qt::Key_Left), m_time, &TimeRangeController::back);
    QAction *fwd = m_viewMenu->addAction(tr("Zoom &Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), m_time, &TimeRangeController::forward);
    m_viewMenu->addAction(tr("Zoom to &Whole Session"), QKeySequence(Qt::Key_0), m_time, &TimeRangeController::zoomToFull);
    auto updateHistory = [this, back, fwd] {
        back->setEnabled(m_time->canGoBack());
        fwd->setEnabled(m_time->canGoForward());
    };
    connect(m_time, &TimeRangeController::historyChanged, this, updateHistory);
    connect(m_time, &TimeRangeController::rangeChanged, this, updateHistory);
    updateHistory();
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>()) m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);

    m_annotations->addMenu(menuBar());
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, [this] { KeyboardShortcuts::showDialog(this); });
    help->addAction(tr("&About Stepscope"), this, [this] {
        QMessageBox::about(this, tr("About Stepscope"),
                           tr("Stepscope %1 — why is training slower than the GPU allows?").arg(STEPSCOPE_VERSION));
    });
}

void MainWindow::buildStatusBar() {
    m_sessionLabel = new QLabel(this);
    m_warnings = new QToolButton(this);
    m_warnings->setAutoRaise(true);
    m_warnings->hide();
    connect(m_warnings, &QToolButton::clicked, this, [this] {
        m_logDock->show();
        m_logDock->raise();
    });
    statusBar()->addWidget(m_sessionLabel, 1);
    statusBar()->addPermanentWidget(m_warnings);
    // One height whatever it shows (QStatusBar measures again on every message, and the docks above
    // it moved by a few pixels when it did).
    statusBar()->setFixedHeight(std::max(m_warnings->sizeHint().height(), m_sessionLabel->sizeHint().height()) + 8);
    // A message takes the session label's place while it shows. QStatusBar hides normal widgets
    // only when they are visible at that moment, so a label shown later was drawn under it.
    connect(statusBar(), &QStatusBar::messageChanged, m_sessionLabel,
            [this](const QString &message) { m_sessionLabel->setVisible(message.isEmpty()); });
}

void MainWindow::showStatus(const QString &text, int ms) {
    m_lastStatus = text;
    statusBar()->showMessage(text, ms);
}

void MainWindow::refreshStatus() {
    for (QAction *a : m_sessionActions) a->setEnabled(m_session->isOpen());
    updateStartPage();
    if (!m_session->isOpen()) {
        m_sessionLabel->setText(tr("No session open"));
        m_warnings->hide();
        m_warningCount = 0;
        return;
    }
    SessionReader reader(*m_session->store());
    // A first picture is named by the session the import is writing.
    const QString shown = displayName(m_session->isPreview() ? m_pendingSession : m_session->path());
    m_sessionLabel->setText(m_session->isPreview()
                                ? tr("%1 — the first %L2 events, importing the rest…").arg(shown).arg(reader.sliceCount())
                                : tr("%1 — %L2 events").arg(shown).arg(reader.sliceCount()));
    m_warningCount = int(reader.warningCount());
    m_warnings->setVisible(m_warningCount > 0);
    m_warnings->setText(tr("⚠ %n warning(s)", nullptr, m_warningCount));
    m_warnings->setToolTip(tr("Import warnings: click to see the import log"));
    setWindowTitle(tr("%1 — Stepscope").arg(QFileInfo(shown).fileName()));
}

void MainWindow::saveSessionAs() {
    if (!m_session->isOpen()) return;
    if (m_session->isPreview()) {
        showStatus(tr("The import is still running: the session can be saved when it is complete"));
        return;
    }
    const QString target = QFileDialog::getSaveFileName(this, tr("Save session as"), lastFolder(), tr("Stepscope sessions (*.stepscope)"));
    if (!target.isEmpty()) rememberFolder(target);
    if (target.isEmpty()) return;
    try {
        m_session->store()->saveCopyTo(target.toStdString());
        statusBar()->showMessage(tr("Saved %1").arg(target), 4000);
    } catch (const StoreError &e) {
        QMessageBox::warning(this, tr("Save failed"), QString::fromStdString(e.what()));
    }
}

CompareWindow *MainWindow::compareWith(const QString &path) {
    if (!m_session->isOpen() || m_session->isPreview()) {
        showStatus(m_session->isPreview() ? tr("The import is still running: compare when it is complete")
                                          : tr("Open the run before the change first: it is the base of the comparison"));
        return nullptr;
    }
    ReportOptions options;
    if (m_batchSize->value() > 0) options.batchSize = m_batchSize->value();
    auto *window = new CompareWindow(this);
    window->setWindowFlag(Qt::Window);
    // The base is named by what its session was made from: the one file, or the folder holding them.
    std::filesystem::path common;
    for (const SourceRow &s : SessionReader(*m_session->store()).sources()) {
        const std::filesystem::path p(s.path);
        if (common.empty()) common = p;
        else
            while (!common.empty() && std::mismatch(common.begin(), common.end(), p.begin(), p.end()).first != common.end())
                common = common.parent_path();
    }
    window->start(QString::fromStdString(m_session->store()->path().string()), path, options,
                  QString::fromStdString(common.string()));
    if (m_mode == Mode::Interactive) window->show();
    return window;
}

void MainWindow::exportPicture(const QString &view) {
    ExportDialog dialog(this, view, this);
    if (dialog.exec() == QDialog::Accepted)
        statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(dialog.writtenFile())), 10000);
}

void MainWindow::resetLayout() {
    restoreState(m_defaultLayout);
    m_docksKeeper->remeasure();
}

void MainWindow::closeEvent(QCloseEvent *event) {
    if (m_worker->busy()) m_worker->cancel();
    if (m_mode == Mode::Interactive) {
        QSettings settings;
        settings.setValue("window/geometry", saveGeometry());
        settings.setValue("window/state", saveState());
    }
    event->accept();
}

void MainWindow::resizeEvent(QResizeEvent *event) {
    // The docks around the timeline never take more than this share of the height, whatever their
    // contents ask for (the user may drag them up to it); the default split and the user's own are
    // kept across window sizes by DockShareKeeper.
    m_centre->setMinimumHeight(int(event->size().height() * kCentreShare));
    QMainWindow::resizeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event) {
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        openPaths(paths);
    }
}

} // namespace stepscope::gui

#pragma once
// MainWindow wires the session, the shared TimeRangeController and the views into docks, and runs
// imports on the ImportWorker. It holds no analysis or parsing of its own (DESIGN.md: app/ wires).

#include "app/gui/import_worker.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <optional>

class QLabel;
class QToolButton;
class QMenu;
class QDockWidget;
class QSpinBox;

namespace stepscope {
class StepTimeView;
class FindingsView;
class TimelinePaneView;
class MetricSeriesModel;
class SliceDetailsView;
}

namespace stepscope::gui {

class AnnotationDocks;
class CompareWindow;
class DockShareKeeper;
class ImportProgressPanel;
class StartPage;
struct ViewModels;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Headless windows (export, evidence pack) use the default layout and never touch the user's
    // settings (no saved layout, no recent files) nor the session: it is opened read-only.
    enum class Mode { Interactive, Headless };
    explicit MainWindow(QWidget *parent = nullptr, Mode mode = Mode::Interactive);
    ~MainWindow() override;

    // Opens what the user gave: a .stepscope session as it is; folders and files are imported into
    // a session file of their own (reused, and re-imported, when the same inputs are opened again).
    void openPaths(const QStringList &paths);
    // rememberInRecent=false for the session files MainWindow makes from a folder: Recent lists
    // the folder, once.
    void openSession(const QString &file, bool rememberInRecent = true);
    void addToSession(const QStringList &paths);
    // File ▸ Compare With…: the open session as the base, `path` as the new run, in a window of its
    // own (shown unless headless); op rows found in this window's timeline. nullptr without a session.
    CompareWindow *compareWith(const QString &path);

    SessionModel *session() const { return m_session; }
    TimeRangeController *timeRange() const { return m_time; }
    ImportWorker *importWorker() const { return m_worker; }
    QWidget *viewWidget(const QString &name) const;  // one of viewNames(), or "details"
    static QStringList viewNames();
    // A new instance of a named view over this window's session and time range (export renders
    // one at the size asked for); nullptr for an unknown name.
    QWidget *createView(const QString &name, QWidget *parent = nullptr);
    // The window's instance metrics, shared by the utilization view and the timeline's metric tracks.
    MetricSeriesModel *metrics();
    QString lastError() const { return m_lastError; }
    // The last status-bar message about opening or importing (what the user was told).
    QString lastStatus() const { return m_lastStatus; }
    ImportProgressPanel *progressPanel() const { return m_progressPanel; }
    // In the timeline's place while no session is open.
    StartPage *startPage() const { return m_startPage; }
    DockShareKeeper *docksKeeper() const { return m_docksKeeper; }
    // View ▸ Reset Layout: every dock back where it was built (a dock dragged off by mistake).
    void resetLayout();
    // Writes the demo profile (a generated input-bound PyTorch run and its nvidia-smi log) into the
    // user's data folder, unless it is there, and opens it.
    void openDemo();
    // File actions that need an open session (Export, Compare, Save As, Add Files, Clock Offsets).
    QList<QAction *> sessionActions() const { return m_sessionActions; }
    // Recent files as the File menu lists them: each thing once, by canonical path; what was opened
    // together is one entry, its paths one per line.
    static QStringList recentFiles();
    // The File menu's text for a recent entry: the path, or the file names joined with " + ".
    static QString recentLabel(const QString &entry);
    // Where the file dialogs start: the folder of the last thing picked in one (else home).
    static QString lastFolder();
    static void rememberFolder(const QString &picked);
    int warningBadgeCount() const { return m_warningCount; }
    static QString sessionPathFor(const QStringList &inputs);
    // Asked when a logdir holds several profile runs: gets the runs (newest first) and returns the
    // one to import, "all", or an empty string to cancel. Default: a dialog; tests replace it.
    using RunChooser = std::function<QString(const QStringList &runsNewestFirst)>;
    void setRunChooser(RunChooser chooser) { m_runChooser = std::move(chooser); }
    // A fresh import of inputs this large first shows a first picture: the timeline of the first
    // kPreviewEvents events of each trace while the rest is imported (DESIGN.md: first frame of a
    // 1 M-event trace within 2 s). Tests lower the threshold.
    static constexpr qint64 kPreviewMinBytes = qint64(8) << 20;
    static constexpr qint64 kPreviewEvents = 100'000;
    void setPreviewThreshold(qint64 minBytes, qint64 events) { m_previewMinBytes = minBytes; m_previewEvents = events; }

signals:
    void importFinished(bool ok);
    void previewShown();  // a first picture of the running import is on screen

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void buildDocks();
    void buildStatusBar();
    void buildToolBar();
    void showDetectedBatchSize();  // the batch box's text when no batch size is saved
    void startImport(const QString &sessionPath, const QStringList &inputs, const ImportOptions &options = {});
    // Which profile run to import when the inputs hold several; nullopt when the user cancelled.
    std::optional<ImportOptions> chooseProfileRun(const QStringList &inputs);
    void onImportFinished(const ImportOutcome &outcome);
    void onPreviewReady(const QString &previewPath);
    qint64 previewEventsFor(const QStringList &inputs) const;
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    void updateStartPage();  // shows it (with the recent sessions) or the timeline
    void refreshStatus();
    void showStatus(const QString &text, int ms = 8000);
    // A session was (re)opened: nothing the user picked in the previous one stays (slice details,
    // step box, search, range selection, zoom history).
    void resetPerSessionState();
    // openSession(), and for a first picture: read-only, with the note the analysis views show.
    void showSessionFile(const QString &file, bool rememberInRecent, const QString &previewNote);
    void saveSessionAs();
    // What the window calls a session: what the user opened (a folder, files), or the session file.
    QString displayName(const QString &session) const;
    void exportPicture(const QString &view);  // "window" or a view name: the Export dialog
    // The timeline's share of the window height: docks never squeeze it below this (they scroll).
    static constexpr double kCentreShare = 0.35;
    ViewModels viewModels();           // what the registry's factories make views from
    QDockWidget *dockOf(const QString &viewName) const;
    void wireViews();                  // the signals between views (a cell picked in one shows in another)
    QDockWidget *addDock(const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area);

    Mode m_mode;
    SessionModel *m_session;
    TimeRangeController *m_time;
    ImportWorker *m_worker;
    StepTimeView *m_steps = nullptr;
    TimelinePaneView *m_timeline = nullptr;
    SliceDetailsView *m_details = nullptr;
    MetricSeriesModel *m_metrics = nullptr;
    QSpinBox *m_batchSize = nullptr;
    FindingsView *m_findings = nullptr;
    QHash<QString, QWidget *> m_views;  // by view name (view_registry.h): what viewWidget() returns
    AnnotationDocks *m_annotations = nullptr;  // Annotations and Saved views docks, Annotate menu
    QWidget *m_centre = nullptr;  // the central widget: progress panel over the timeline
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QLabel *m_sessionLabel = nullptr;
    ImportProgressPanel *m_progressPanel = nullptr;
    StartPage *m_startPage = nullptr;
    DockShareKeeper *m_docksKeeper = nullptr;  // the user's timeline/docks split across window sizes
    QList<QAction *> m_sessionActions;
    QByteArray m_defaultLayout;  // the docks as built, for View ▸ Reset Layout
    QHash<QString, QString> m_sessionLabels;  // session file → what it was made from (displayName)
    QToolButton *m_warnings = nullptr;
    QDockWidget *m_logDock = nullptr;
    RunChooser m_runChooser;
    QString m_pendingSession;
    QStringList m_pendingInputs;
    QString m_pendingRecent;     // what Recent gets when the import completes
    QString m_previousSession;   // open when the import started: shown again when it is cancelled
    bool m_pendingIsNew = false; // the import creates its session file: removed again on cancel
    QString m_previewPath;       // the running import's first picture (shown or being made)
    qint64 m_previewMinBytes = kPreviewMinBytes;
    qint64 m_previewEvents = kPreviewEvents;
    QString m_lastStatus;
    QString m_lastError;
    int m_warningCount = 0;
};

} // namespace stepscope::gui

#pragma once
// CompareWindow: File ▸ Compare With… — the open session as the base, another logdir, trace or
// session as the new run. As a BackgroundJob it imports the new run into a session of the window's
// own (removed with it) and compares the two (compareInputs, the same as `stepscope compare`); the
// window says "Comparing…" meanwhile and names the side that failed. Then a Summary tab
// (CompareView) and a Timelines tab (AlignedTimelines: both runs stacked, step-aligned, linked zoom).
// When a side holds several runs (a folder with two captures) a bar above the tabs offers each
// side's runs; Compare runs the comparison again with the picked ones (the new side's import is
// kept), and the choice is remembered per path for the next comparison.
// File ▸ Export (Ctrl+E) writes the current tab through ViewExporter (PNG/SVG/PDF) with a caption
// naming both runs. Closing the window cancels a running import (rolled back) without waiting for
// it, but for an analysis in progress, which has no cancel.

#include "models/analysis/report/report_builder.h"
#include "models/qt/background_job.h"
#include "views/compare/aligned_timelines.h"
#include "views/compare/compare_view.h"

#include <QMainWindow>
#include <QTemporaryDir>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QTabWidget;

namespace stepscope::gui {

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget *parent = nullptr);
    ~CompareWindow() override;

    // Compares `base` with `next` (paths `report` takes); the result arrives as finished().
    // `baseLabel` names the base in the views (e.g. the logdir its session was made from).
    void start(const QString &base, const QString &next, const ReportOptions &options, const QString &baseLabel = {});
    CompareView *view() const { return m_view; }
    AlignedTimelines *timelines() const { return m_timelines; }
    QTabWidget *tabs() const { return m_tabs; }
    QString lastError() const { return m_error; }
    // The run pickers, shown when a side holds several runs.
    QWidget *runChooser() const { return m_chooser; }
    QComboBox *baseRunBox() const { return m_baseRun; }
    QComboBox *nextRunBox() const { return m_nextRun; }
    // Compares again with the runs picked in the chooser.
    void compareChosenRuns();
    // The caption lines of an export: both runs and the change. Empty before a comparison.
    QStringList caption() const;
    // Writes the view to `file` (.png/.svg/.pdf); an empty string, or why not.
    QString exportTo(const QString &file, double scale = 1.0);

signals:
    void finished(bool ok);

private:
    void exportDialog();
    void run(const std::optional<QString> &baseRun, const std::optional<QString> &nextRun);
    void showRuns(const QStringList &base, const QStringList &next, const QString &baseUsed, const QString &nextUsed);
    // What each side's remembered pick is kept under: its absolute path (the new side's marked
    // when both sides are one folder).
    QString basePath() const;
    QString nextKey() const;
    static QString rememberedRun(const QString &key);
    static void rememberRun(const QString &key, const QString &run);

    QTabWidget *m_tabs;
    CompareView *m_view;
    AlignedTimelines *m_timelines;
    QTemporaryDir m_scratch;  // the new run's session, when it was not one already
    BackgroundJob m_job;  // after m_scratch: its worker is stopped before the folder goes
    int m_runs = 0;  // comparisons started: names each one's scratch session
    QWidget *m_chooser;
    QLabel *m_chooserNote;
    QComboBox *m_baseRun, *m_nextRun;
    // What start() was given, for Compare with other runs.
    QString m_base, m_next, m_baseLabel;
    ReportOptions m_options;
    QString m_nextImported;  // the scratch session m_next was imported into, once that succeeded
    bool m_ready = false;
    QString m_error;
};

} // namespace stepscope::gui

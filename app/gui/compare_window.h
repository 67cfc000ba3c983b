#pragma once
// CompareWindow: File ▸ Compare With… — the open session as the base, another logdir, trace or
// session as the new run. It imports and analyses both on a worker thread (compareInputs, the same
// as `stepscope compare`; the window says "Comparing…" meanwhile and names the side that failed),
// then shows them in a CompareView. File ▸ Export (Ctrl+E) writes the view through ViewExporter
// (PNG/SVG/PDF) with a caption naming both runs. Closing the window waits for a running import.

#include "models/analysis/report_builder.h"
#include "views/compare/compare_view.h"

#include <QMainWindow>

#include <memory>
#include <thread>

namespace stepscope::gui {

class CompareWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget *parent = nullptr);
    ~CompareWindow() override;

    // Compares `base` with `next` (paths `report` takes); the result arrives as finished().
    void start(const QString &base, const QString &next, const ReportOptions &options);
    CompareView *view() const { return m_view; }
    QString lastError() const { return m_error; }
    // The caption lines of an export: both runs and the change. Empty before a comparison.
    QStringList caption() const;
    // Writes the view to `file` (.png/.svg/.pdf); an empty string, or why not.
    QString exportTo(const QString &file, double scale = 1.0);

signals:
    void finished(bool ok);

private:
    void exportDialog();

    CompareView *m_view;
    std::thread m_worker;
    bool m_ready = false;
    QString m_error;
};

} // namespace stepscope::gui

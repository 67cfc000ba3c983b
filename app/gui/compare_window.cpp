#include "app/gui/compare_window.h"

#include "app/cli/compare_inputs.h"
#include "app/cli/input_session.h"
#include "app/gui/export_dialog.h"
#include "views/export/view_exporter.h"

#include <QApplication>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include <sstream>

namespace stepscope::gui {

CompareWindow::CompareWindow(QWidget *parent)
    : QMainWindow(parent), m_tabs(new QTabWidget(this)), m_view(new CompareView(m_tabs)), m_timelines(new AlignedTimelines(m_tabs)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Stepscope — compare"));
    m_tabs->addTab(m_view, tr("&Summary"));
    m_tabs->addTab(m_timelines, tr("&Timelines"));
    m_tabs->setTabEnabled(1, false);
    setCentralWidget(m_tabs);
    // An op activated in the table: found in both timelines, shown.
    connect(m_view, &CompareView::opSelected, m_timelines, [this](const QString &name, int) {
        m_timelines->search(name);
        if (m_tabs->isTabEnabled(1)) m_tabs->setCurrentIndex(1);
    });
    resize(1200, 860);
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Export View…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &CompareWindow::exportDialog);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

CompareWindow::~CompareWindow() {
    m_job.cancel();
    delete m_tabs;  // closes the timelines' sessions before the scratch folder goes
}

void CompareWindow::start(const QString &base, const QString &next, const ReportOptions &options, const QString &baseLabel) {
    m_ready = false;
    m_error.clear();
    m_view->setMessage(tr("Comparing %1 with %2: importing and analysing both…").arg(base, next));
    setWindowTitle(tr("Stepscope — compare %1 → %2").arg(QFileInfo(baseLabel.isEmpty() ? base : baseLabel).fileName(), QFileInfo(next).fileName()));
    // A file of its own per comparison: a superseded one may still be rolling its import back.
    const std::string scratch = m_scratch.filePath(QStringLiteral("new%1.stepscope").arg(++m_runs)).toStdString();
    const std::optional<std::string> label = baseLabel.isEmpty() ? std::nullopt : std::optional<std::string>(baseLabel.toStdString());
    m_job.start([this, base = base.toStdString(), next = next.toStdString(), scratch, options, label](const CancelToken &cancel)
                    -> BackgroundJob::Deliver {
        auto result = std::make_shared<RunComparison>();
        std::ostringstream out, err;
        int code = cli::Unreadable;
        std::string nextSession = next;
        try {
            // The new run gets a session of its own (its timeline reads it after the comparison).
            if (!(std::filesystem::is_regular_file(next) && cli::isSessionFile(next))) {
                nextSession = scratch;
                std::filesystem::remove(scratch);
                SessionStore store(scratch);
                code = cli::importInto(store, {next}, {out, err, false}, nullptr, {}, cancel.flag());
                if (code != cli::Ok && code != cli::Partial)
                    err << "the new side (" << next << ") could not be read\n";
            } else {
                code = cli::Ok;
            }
            if (code == cli::Ok || code == cli::Partial)
                code = cli::compareInputs({base, std::nullopt, nextSession, std::nullopt, label, next, {}, cancel.flag()},
                                          options, {out, err, false}, *result);
        } catch (const std::exception &e) {
            err << e.what();
            code = cli::Unreadable;
        }
        const bool ok = code == cli::Ok || code == cli::Partial;
        const QString message = QString::fromStdString(err.str()).trimmed();
        const QString baseFile = QString::fromStdString(base), nextFile = QString::fromStdString(nextSession);
        // Runs on the window's thread, unless the window was closed or started another comparison.
        return [this, ok, result, message, baseFile, nextFile] {
            if (ok) {
                m_view->setComparison(*result);
                QString error;
                const bool timelines = m_timelines->setSessions(
                    baseFile, QString::fromStdString(result->base.label), result->base.stepStarts, nextFile,
                    QString::fromStdString(result->next.label), result->next.stepStarts, &error);
                m_tabs->setTabEnabled(1, timelines);
                m_ready = true;
                statusBar()->showMessage(timelines ? tr("Compared") : tr("Compared; no timelines: %1").arg(error), 10000);
            } else {
                m_error = message.isEmpty() ? tr("the comparison failed") : message;
                m_view->setMessage(m_error);
            }
            emit finished(ok);
        };
    });
}

QStringList CompareWindow::caption() const {
    if (!m_ready) return {};
    const RunComparison &c = m_view->comparison();
    auto side = [](const char *role, const ComparedRun &r) {
        return QStringLiteral("%1: %2 (run %3, %4 steps, mean %5 ms, bottleneck %6)")
            .arg(QString::fromLatin1(role), QString::fromStdString(r.label), QString::fromStdString(r.run))
            .arg(r.steps)
            .arg(r.stepTime.meanMs, 0, 'f', 2)
            .arg(QString::fromStdString(r.bottleneck));
    };
    const double speed = c.next.stepTime.meanMs > 0 ? c.base.stepTime.meanMs / c.next.stepTime.meanMs : 0;
    QStringList lines{side("base", c.base), side("new", c.next),
                      tr("step time %1 → %2 ms (%3%4 %, %5)")
                          .arg(c.base.stepTime.meanMs, 0, 'f', 2)
                          .arg(c.next.stepTime.meanMs, 0, 'f', 2)
                          .arg(c.stepTimeChangePct > 0 ? QStringLiteral("+") : QString())
                          .arg(c.stepTimeChangePct, 0, 'f', 1)
                          .arg(speed >= 1 ? tr("%1× faster").arg(speed, 0, 'f', 2) : tr("%1× slower").arg(speed > 0 ? 1 / speed : 0, 0, 'f', 2))};
    return lines;
}

QString CompareWindow::exportTo(const QString &file, double scale) {
    if (!m_ready) return tr("nothing to export yet: the comparison is not ready");
    ExportOptions options;
    options.scale = scale;
    options.decoration.title = tr("Stepscope — compare");
    options.decoration.caption = caption();
    QWidget *view = m_tabs->currentWidget();
    if (view == m_timelines) {
        // The picture shows the timelines and the aligned step, not the controls.
        options.decoration.caption << tr("timelines aligned at step %1").arg(m_timelines->alignedStep());
        m_timelines->setControlsVisible(false);
        QCoreApplication::processEvents();
    }
    const QString error = ViewExporter::exportWidget(view, file, options);
    m_timelines->setControlsVisible(true);
    return error;
}

void CompareWindow::exportDialog() {
    // The folder of the last export, shared with the main window's Export dialog.
    const QString file = QFileDialog::getSaveFileName(this, tr("Export the comparison"),
                                                      QDir(ExportDialog::lastFolder()).filePath(QStringLiteral("compare.png")),
                                                      tr("Pictures (*.png *.svg *.pdf)"));
    if (file.isEmpty()) return;
    QSettings().setValue(QStringLiteral("export/lastFolder"), QFileInfo(file).absolutePath());
    if (const QString error = exportTo(file); !error.isEmpty()) QMessageBox::warning(this, tr("Export failed"), error);
    else statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(file)), 10000);
}

} // namespace stepscope::gui

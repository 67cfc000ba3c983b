#include "app/gui/compare_window.h"

#include "app/cli/compare_inputs.h"
#include "app/gui/export_dialog.h"
#include "views/export/view_exporter.h"

#include <QApplication>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>

#include <sstream>

namespace stepscope::gui {

CompareWindow::CompareWindow(QWidget *parent) : QMainWindow(parent), m_view(new CompareView(this)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Stepscope — compare"));
    setCentralWidget(m_view);
    resize(1200, 860);
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Export View…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &CompareWindow::exportDialog);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

CompareWindow::~CompareWindow() {
    if (m_worker.joinable()) m_worker.join();
}

void CompareWindow::start(const QString &base, const QString &next, const ReportOptions &options) {
    if (m_worker.joinable()) m_worker.join();
    m_ready = false;
    m_error.clear();
    m_view->setMessage(tr("Comparing %1 with %2: importing and analysing both…").arg(base, next));
    setWindowTitle(tr("Stepscope — compare %1 → %2").arg(QFileInfo(base).fileName(), QFileInfo(next).fileName()));
    QPointer<CompareWindow> self(this);
    const cli::CompareInputs in{base.toStdString(), std::nullopt, next.toStdString(), std::nullopt};
    m_worker = std::thread([self, in, options] {
        auto result = std::make_shared<RunComparison>();
        std::ostringstream out, err;
        int code = cli::Unreadable;
        try {
            code = cli::compareInputs(in, options, {out, err, false}, *result);
        } catch (const std::exception &e) {
            err << e.what();
        }
        const bool ok = code == cli::Ok || code == cli::Partial;
        const QString message = QString::fromStdString(err.str()).trimmed();
        QMetaObject::invokeMethod(
            qApp,
            [self, ok, result, message] {
                if (!self) return;
                if (ok) {
                    self->m_view->setComparison(*result);
                    self->m_ready = true;
                    self->statusBar()->showMessage(message.isEmpty() ? tr("Compared") : message, 10000);
                } else {
                    self->m_error = message.isEmpty() ? tr("the comparison failed") : message;
                    self->m_view->setMessage(self->m_error);
                }
                emit self->finished(ok);
            },
            Qt::QueuedConnection);
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
    QStringList lines{side("base", c.base), side("new", c.next),
                      tr("step time %1 → %2 ms (%3%4 %)")
                          .arg(c.base.stepTime.meanMs, 0, 'f', 2)
                          .arg(c.next.stepTime.meanMs, 0, 'f', 2)
                          .arg(c.stepTimeChangePct > 0 ? QStringLiteral("+") : QString())
                          .arg(c.stepTimeChangePct, 0, 'f', 1)};
    return lines;
}

QString CompareWindow::exportTo(const QString &file, double scale) {
    if (!m_ready) return tr("nothing to export yet: the comparison is not ready");
    ExportOptions options;
    options.scale = scale;
    options.decoration.title = tr("Stepscope — compare");
    options.decoration.caption = caption();
    return ViewExporter::exportWidget(m_view, file, options);
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

#include "app/gui/compare_window.h"

#include "app/cli/compare_inputs.h"
#include "app/cli/input_session.h"
#include "app/gui/export_dialog.h"
#include "views/export/view_exporter.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <sstream>

namespace stepscope::gui {

CompareWindow::CompareWindow(QWidget *parent)
    : QMainWindow(parent), m_tabs(new QTabWidget(this)), m_view(new CompareView(m_tabs)), m_timelines(new AlignedTimelines(m_tabs)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Stepscope — compare"));
    m_tabs->addTab(m_view, tr("&Summary"));
    m_tabs->addTab(m_timelines, tr("&Timelines"));
    m_tabs->setTabEnabled(1, false);
    // The run pickers above the tabs, for sides that hold several runs.
    m_chooser = new QWidget(this);
    m_chooser->setObjectName(QStringLiteral("compareRunChooser"));
    m_chooserNote = new QLabel(m_chooser);
    m_baseRun = new QComboBox(m_chooser);
    m_nextRun = new QComboBox(m_chooser);
    for (QComboBox *box : {m_baseRun, m_nextRun}) box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *compareButton = new QPushButton(tr("&Compare"), m_chooser);
    compareButton->setDefault(true);
    connect(compareButton, &QPushButton::clicked, this, &CompareWindow::compareChosenRuns);
    auto *bar = new QHBoxLayout(m_chooser);
    bar->setContentsMargins(8, 6, 8, 2);
    bar->addWidget(m_chooserNote);
    bar->addWidget(new QLabel(tr("Base run:"), m_chooser));
    bar->addWidget(m_baseRun);
    bar->addWidget(new QLabel(tr("New run:"), m_chooser));
    bar->addWidget(m_nextRun);
    bar->addWidget(compareButton);
    bar->addStretch(1);  // the words beside the boxes they are about, on any width
    m_chooser->hide();
    auto *central = new QWidget(this);
    auto *column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_chooser);
    column->addWidget(m_tabs, 1);
    setCentralWidget(central);
    // An op activated in the table: found in both timelines, shown.
    connect(m_view, &CompareView::opSelected, m_timelines, [this](const QString &name, int) {
        m_timelines->search(name);
        if (m_tabs->isTabEnabled(1)) m_tabs->setCurrentIndex(1);
    });
    // 1200×860, or the screen's room when it is smaller (a 1280×720 screen).
    QSize size(1200, 860);
    if (const QScreen *screen = QGuiApplication::primaryScreen()) size = size.boundedTo(screen->availableGeometry().size());
    resize(size);
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
    m_base = base;
    m_next = next;
    m_baseLabel = baseLabel;
    m_options = options;
    m_nextImported.clear();
    m_chooser->hide();
    // The runs picked the last time these paths were compared; a side with one run ignores them.
    const QString baseRun = rememberedRun(basePath());
    QString nextRun = rememberedRun(nextKey());
    // A folder compared with itself: never one run with itself (the user picks the other).
    if (nextRun == baseRun && basePath() == nextKey()) nextRun.clear();
    run(baseRun.isEmpty() ? std::nullopt : std::optional(baseRun), nextRun.isEmpty() ? std::nullopt : std::optional(nextRun));
}

QString CompareWindow::basePath() const {
    return QFileInfo(m_baseLabel.isEmpty() ? m_base : m_baseLabel).absoluteFilePath();
}

QString CompareWindow::nextKey() const {
    // The same folder on both sides remembers its new side's pick apart from its base's.
    const QString next = QFileInfo(m_next).absoluteFilePath();
    return next == basePath() ? next + QStringLiteral("#new") : next;
}

void CompareWindow::compareChosenRuns() {
    auto picked = [](const QComboBox *box) {
        return box->count() > 1 ? std::optional(box->currentText()) : std::nullopt;
    };
    run(picked(m_baseRun), picked(m_nextRun));
}

QString CompareWindow::rememberedRun(const QString &key) {
    return QSettings().value(QStringLiteral("compare/run/") + key.toUtf8().toBase64()).toString();
}

void CompareWindow::rememberRun(const QString &key, const QString &run) {
    QSettings().setValue(QStringLiteral("compare/run/") + key.toUtf8().toBase64(), run);
}

void CompareWindow::showRuns(const QStringList &base, const QStringList &next, const QString &baseUsed, const QString &nextUsed) {
    auto fill = [](QComboBox *box, const QStringList &runs, const QString &used) {
        box->clear();
        box->addItems(runs);
        box->setEnabled(runs.size() > 1);
        if (const int i = box->findText(used); i >= 0) box->setCurrentIndex(i);
    };
    fill(m_baseRun, base, baseUsed);
    fill(m_nextRun, next, nextUsed);
    m_chooser->setVisible(base.size() > 1 || next.size() > 1);
}

void CompareWindow::run(const std::optional<QString> &baseRun, const std::optional<QString> &nextRun) {
    m_ready = false;
    m_error.clear();
    const QString &base = m_base, &next = m_next;
    m_view->setMessage(tr("Comparing %1 with %2: importing and analysing both…").arg(m_baseLabel.isEmpty() ? base : m_baseLabel, next));
    setWindowTitle(tr("Stepscope — compare %1 → %2").arg(QFileInfo(m_baseLabel.isEmpty() ? base : m_baseLabel).fileName(), QFileInfo(next).fileName()));
    // A file of its own per import: a superseded one may still be rolling its import back. An import
    // that finished is kept for comparisons of other runs.
    const std::string imported = m_nextImported.toStdString();
    const std::string scratch = imported.empty() ? m_scratch.filePath(QStringLiteral("new%1.stepscope").arg(++m_runs)).toStdString() : imported;
    const std::optional<std::string> label = m_baseLabel.isEmpty() ? std::nullopt : std::optional<std::string>(m_baseLabel.toStdString());
    auto names = [](const std::optional<QString> &run) {
        return run ? std::optional<std::string>(run->toStdString()) : std::nullopt;
    };
    m_job.start([this, base = base.toStdString(), next = next.toStdString(), scratch, imported, options = m_options, label,
                 baseRun = names(baseRun), nextRun = names(nextRun)](const CancelToken &cancel) -> BackgroundJob::Deliver {
        auto result = std::make_shared<RunComparison>();
        auto runs = std::make_shared<cli::CompareRuns>();
        std::ostringstream out, err;
        int code = cli::Unreadable;
        std::string nextSession = next;
        bool importedNow = false;
        try {
            // The new run gets a session of its own (its timeline reads it after the comparison).
            if (!(std::filesystem::is_regular_file(next) && cli::isSessionFile(next))) {
                nextSession = scratch;
                if (imported.empty()) {
                    std::filesystem::remove(scratch);
                    SessionStore store(scratch);
                    code = cli::importInto(store, {next}, {out, err, false}, nullptr, {}, cancel);
                    if (code != cli::Ok && code != cli::Partial)
                        err << "the new side (" << next << ") could not be read\n";
                    else
                        importedNow = true;
                } else {
                    code = cli::Ok;
                }
            } else {
                code = cli::Ok;
            }
            if (code == cli::Ok || code == cli::Partial)
                code = cli::compareInputs({base, baseRun, nextSession, nextRun, label, next, {}, cancel}, options,
                                          {out, err, false}, *result, nullptr, runs.get());
        } catch (const std::exception &e) {
            err << e.what();
            code = cli::Unreadable;
        }
        const bool ok = code == cli::Ok || code == cli::Partial;
        const QString message = QString::fromStdString(err.str()).trimmed();
        const QString baseFile = QString::fromStdString(base), nextFile = QString::fromStdString(nextSession);
        const QString keep = importedNow ? QString::fromStdString(scratch) : QString();
        // Runs on the window's thread, unless the window was closed or started another comparison.
        return [this, ok, result, runs, message, baseFile, nextFile, keep, baseRun, nextRun] {
            if (!keep.isEmpty()) m_nextImported = keep;
            QStringList baseRuns, nextRuns;
            for (const std::string &r : runs->base) baseRuns << QString::fromStdString(r);
            for (const std::string &r : runs->next) nextRuns << QString::fromStdString(r);
            if (ok) {
                showRuns(baseRuns, nextRuns, QString::fromStdString(result->base.run), QString::fromStdString(result->next.run));
                if (baseRuns.size() > 1) rememberRun(basePath(), QString::fromStdString(result->base.run));
                if (nextRuns.size() > 1) rememberRun(nextKey(), QString::fromStdString(result->next.run));
                m_chooserNote->setText(tr("Compared the runs picked on the right; pick others and Compare again."));
                m_view->setComparison(*result);
                QString error;
                const bool timelines = m_timelines->setSessions(
                    baseFile, QString::fromStdString(result->base.label), result->base.stepStarts, nextFile,
                    QString::fromStdString(result->next.label), result->next.stepStarts, &error);
                m_tabs->setTabEnabled(1, timelines);
                m_ready = true;
                statusBar()->showMessage(timelines ? tr("Compared") : tr("Compared; no timelines: %1").arg(error), 10000);
            } else {
                // A side with several runs and none picked (or a picked one it no longer holds): the
                // window asks, instead of naming a command-line option.
                auto unpicked = [](const QStringList &held, const std::optional<std::string> &asked) {
                    return held.size() > 1 && (!asked || !held.contains(QString::fromStdString(*asked)));
                };
                if (unpicked(baseRuns, baseRun) || unpicked(nextRuns, nextRun)) {
                    showRuns(baseRuns, nextRuns, baseRun ? QString::fromStdString(*baseRun) : QString(),
                             nextRun ? QString::fromStdString(*nextRun) : QString());
                    // Both sides the same runs: the new side starts on another run than the base.
                    if (baseRuns == nextRuns && m_nextRun->currentIndex() == m_baseRun->currentIndex() && m_nextRun->count() > 1)
                        m_nextRun->setCurrentIndex((m_baseRun->currentIndex() + 1) % m_nextRun->count());
                    QStringList sides;
                    if (baseRuns.size() > 1) sides << tr("the base holds %1 runs").arg(baseRuns.size());
                    if (nextRuns.size() > 1) sides << tr("%1 holds %2 runs").arg(QFileInfo(m_next).fileName()).arg(nextRuns.size());
                    m_error = tr("%1: pick the run to compare on each side above, then press Compare.").arg(sides.join(tr(" and ")));
                    m_chooserNote->setText(tr("Pick the runs to compare:"));
                    m_tabs->setTabEnabled(1, false);
                } else {
                    m_error = message.isEmpty() ? tr("the comparison failed") : message;
                }
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

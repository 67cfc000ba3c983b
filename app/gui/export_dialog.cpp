#include "app/gui/export_dialog.h"

#include "app/gui/figure_renderer.h"
#include "app/gui/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

namespace stepscope::gui {

ExportDialog::ExportDialog(MainWindow *window, const QString &view, QWidget *parent)
    : QDialog(parent), m_window(window), m_view(new QComboBox(this)), m_format(new QComboBox(this)), m_scale(new QComboBox(this)),
      m_file(new QLineEdit(this)), m_caption(new QCheckBox(tr("Caption and legend (source, run, range, verdict, notes)"), this)) {
    setWindowTitle(view == QLatin1String("window") ? tr("Export window") : tr("Export view"));
    m_view->addItem(tr("Whole window"), QStringLiteral("window"));
    for (const QString &name : MainWindow::viewNames())
        if (window->viewWidget(name)) m_view->addItem(name, name);
    m_view->setCurrentIndex(std::max(0, m_view->findData(view)));
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG (vector, text kept as text)"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF (one page)"), QStringLiteral("pdf"));
    m_scale->addItem(QStringLiteral("1×"), 1.0);
    m_scale->addItem(QStringLiteral("2× (high DPI)"), 2.0);
    m_caption->setChecked(true);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    auto *form = new QFormLayout(this);
    form->addRow(tr("What:"), m_view);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Scale:"), m_scale);
    form->addRow(tr("File:"), fileRow);
    form->addRow(QString(), m_caption);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    // The suffix follows the format, and the scale only applies to PNG.
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        const QString suffix = m_format->currentData().toString();
        m_scale->setEnabled(suffix == QLatin1String("png"));
        QFileInfo f(m_file->text());
        if (!m_file->text().isEmpty() && f.suffix().toLower() != suffix)
            m_file->setText(f.dir().filePath(f.completeBaseName() + "." + suffix));
    });
    const QString base = view == QLatin1String("window") ? QStringLiteral("stepscope-window") : QStringLiteral("stepscope-") + view;
    // The folder of the last export (else home): pictures of one investigation land together.
    m_file->setText(QDir(lastFolder()).filePath(base + ".png"));
}

QString ExportDialog::lastFolder() {
    const QString dir = QSettings().value(QStringLiteral("export/lastFolder")).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void ExportDialog::setFile(const QString &file) {
    m_file->setText(file);
    const int idx = m_format->findData(QFileInfo(file).suffix().toLower());
    if (idx >= 0) m_format->setCurrentIndex(idx);
}

void ExportDialog::browse() {
    const QString f = QFileDialog::getSaveFileName(this, windowTitle(), m_file->text(),
                                                   tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (!f.isEmpty()) setFile(f);
}

QString ExportDialog::exportNow() {
    const QString view = m_view->currentData().toString();
    QWidget *widget = view == QLatin1String("window") ? static_cast<QWidget *>(m_window) : m_window->viewWidget(view);
    if (!widget) return tr("nothing to export");
    QString file = m_file->text();
    if (QFileInfo(file).suffix().isEmpty()) file += "." + m_format->currentData().toString();
    FigureRequest r;
    r.view = view;
    r.scale = m_scale->currentData().toDouble();
    r.caption = m_caption->isChecked();
    const QString error = FigureRenderer(*m_window).renderLive(widget, r, file);
    if (error.isEmpty()) {
        m_written = QFileInfo(file).absoluteFilePath();
        QSettings().setValue(QStringLiteral("export/lastFolder"), QFileInfo(m_written).absolutePath());
    }
    return error;
}

void ExportDialog::accept() {
    const QString error = exportNow();
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export failed"), error);
        return;
    }
    QDialog::accept();
}

} // namespace stepscope::gui

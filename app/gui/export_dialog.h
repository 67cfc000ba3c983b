#pragma once
// ExportDialog is File ▸ Export View… / Export Window…: which view (or the whole window), the file
// (its suffix picks PNG, SVG or PDF), PNG scale 1×/2×, and whether to frame the picture with the
// caption and legend. It renders the live widget through FigureRenderer, so the GUI's pictures match
// `stepscope export`. Opened by MainWindow.

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace stepscope::gui {

class MainWindow;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(MainWindow *window, const QString &view, QWidget *parent = nullptr);

    // Renders with the dialog's choices; returns the error, empty on success.
    QString exportNow();
    void setFile(const QString &file);
    // The file the last successful exportNow() wrote (absolute), for the status bar; empty before.
    QString writtenFile() const { return m_written; }
    // Where the file field starts: the folder of the last export (QSettings), else home.
    static QString lastFolder();

private:
    void browse();
    void accept() override;

    MainWindow *m_window;
    QComboBox *m_view, *m_format, *m_scale;
    QLineEdit *m_file;
    QCheckBox *m_caption;
    QString m_written;
};

} // namespace stepscope::gui

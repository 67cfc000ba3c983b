#include "views/annotations/annotation_dialog.h"

#include "models/text/time_format.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPixmap>

namespace stepscope {

const std::vector<std::pair<QString, QString>> &AnnotationDialog::palette() {
    static const std::vector<std::pair<QString, QString>> colors = {
        {QStringLiteral("#f5a623"), QObject::tr("Amber")}, {QStringLiteral("#e0474c"), QObject::tr("Red")},
        {QStringLiteral("#2f6fb5"), QObject::tr("Blue")},  {QStringLiteral("#3a9d5d"), QObject::tr("Green")},
        {QStringLiteral("#8a56c2"), QObject::tr("Purple")}, {QStringLiteral("#6b7280"), QObject::tr("Grey")}};
    return colors;
}

AnnotationDialog::AnnotationDialog(const Annotation &a, QWidget *parent)
    : QDialog(parent), m_a(a), m_text(new QLineEdit(this)), m_color(new QComboBox(this)) {
    setWindowTitle(a.id > 0 ? tr("Edit annotation") : tr("Annotate"));
    m_text->setText(QString::fromStdString(a.text));
    m_text->setPlaceholderText(tr("e.g. GPU idles while the data loader runs"));
    m_text->setMinimumWidth(360);
    for (const auto &[hex, name] : palette()) {
        QPixmap swatch(14, 14);
        swatch.fill(QColor(hex));
        m_color->addItem(QIcon(swatch), name, hex);
    }
    const int idx = m_color->findData(QString::fromStdString(a.color));
    if (idx >= 0) m_color->setCurrentIndex(idx);
    auto *form = new QFormLayout(this);
    const QString when = a.isPoint() ? tr("a point in time") : tr("a range of %1").arg(formatTime(a.endNs - a.startNs));
    form->addRow(tr("Time:"), new QLabel(when, this));
    form->addRow(tr("Text:"), m_text);
    form->addRow(tr("Colour:"), m_color);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

Annotation AnnotationDialog::annotation() const {
    Annotation a = m_a;
    a.text = m_text->text().trimmed().toStdString();
    a.color = m_color->currentData().toString().toStdString();
    return a;
}

int64_t AnnotationDialog::create(QWidget *parent, AnnotationModel *model, int64_t startNs, int64_t endNs, const QString &text) {
    if (!model->canWrite()) {
        QMessageBox::information(parent, tr("Annotate"), tr("Open or import a session first: notes are stored in it."));
        return 0;
    }
    Annotation a;
    a.startNs = std::min(startNs, endNs);
    a.endNs = std::max(startNs, endNs);
    a.text = text.toStdString();
    AnnotationDialog dialog(a, parent);
    if (dialog.exec() != QDialog::Accepted || dialog.annotation().text.empty()) return 0;
    return model->add(dialog.annotation());
}

bool AnnotationDialog::edit(QWidget *parent, AnnotationModel *model, int64_t id) {
    const Annotation *a = model->find(id);
    if (!a) return false;
    AnnotationDialog dialog(*a, parent);
    if (dialog.exec() != QDialog::Accepted || dialog.annotation().text.empty()) return false;
    model->update(dialog.annotation());
    return true;
}

} // namespace stepscope

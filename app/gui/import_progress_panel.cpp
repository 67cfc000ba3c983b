#include "app/gui/import_progress_panel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace stepscope::gui {

namespace {
QString rate(double perSecond, const QString &unit) {
    if (perSecond >= 1e6) return QStringLiteral("%1 M %2/s").arg(perSecond / 1e6, 0, 'f', 1).arg(unit);
    if (perSecond >= 1e3) return QStringLiteral("%1 k %2/s").arg(perSecond / 1e3, 0, 'f', 1).arg(unit);
    return QStringLiteral("%1 %2/s").arg(perSecond, 0, 'f', 0).arg(unit);
}

QString timeLeft(double seconds) {
    if (seconds < 1) return ImportProgressPanel::tr("less than a second left");
    if (seconds < 90) return ImportProgressPanel::tr("about %n s left", nullptr, int(seconds + 0.5));
    return ImportProgressPanel::tr("about %n min left", nullptr, int(seconds / 60 + 0.5));
}
} // namespace

ImportProgressPanel::ImportProgressPanel(QWidget *parent)
    : QFrame(parent), m_title(new QLabel(this)), m_file(new QLabel(this)), m_bar(new QProgressBar(this)),
      m_detail(new QLabel(this)), m_cancel(new QPushButton(tr("Cancel"), this)) {
    setObjectName(QStringLiteral("importProgressPanel"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    auto *text = new QVBoxLayout;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    text->addWidget(m_title);
    text->addWidget(m_file);
    layout->addLayout(text, 2);
    auto *middle = new QVBoxLayout;
    m_bar->setRange(0, 1000);
    m_bar->setMinimumWidth(240);
    m_bar->setTextVisible(true);
    middle->addWidget(m_bar);
    middle->addWidget(m_detail);
    layout->addLayout(middle, 3);
    // Long names are elided in the middle (the start and the extension stay), full path as tooltip.
    m_file->setMinimumWidth(120);
    m_file->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_cancel->setToolTip(tr("Stop the import; the session that was open stays as it was (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));  // live only while the panel is shown
    layout->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &ImportProgressPanel::cancelRequested);
    hide();
}

void ImportProgressPanel::begin(const QString &what) {
    m_title->setText(tr("Importing %1").arg(what));
    m_fullFile.clear();
    m_file->setText(tr("Looking for profiles and metrics…"));
    m_file->setToolTip({});
    m_bar->setValue(0);
    m_bar->setFormat(tr("%p %"));
    m_detail->setText(tr("starting…"));
    m_cancel->setEnabled(true);
    m_cancel->setText(tr("Cancel"));
    m_clock.start();
    show();
}

void ImportProgressPanel::update(qint64 done, qint64 total, const QString &file, qint64 eventsDone) {
    m_bar->setValue(total > 0 ? int(done * 1000 / total) : 0);
    if (file != m_fullFile) {
        m_fullFile = file;
        m_file->setToolTip(file);
    }
    const QString name = QFileInfo(file).fileName();
    m_file->setText(m_file->fontMetrics().elidedText(name, Qt::ElideMiddle, std::max(120, m_file->width())));
    const double seconds = m_clock.elapsed() / 1000.0;
    QStringList parts;
    parts << tr("%1 of %2 MB").arg(done / 1e6, 0, 'f', 1).arg(total / 1e6, 0, 'f', 1);
    if (seconds > 0.2) {
        // Events are counted per finished file; until one is done the byte rate is all there is.
        parts << (eventsDone > 0 ? rate(eventsDone / seconds, tr("events")) : tr("%1 MB/s").arg(done / 1e6 / seconds, 0, 'f', 1));
        if (done > 0 && total > done) parts << timeLeft(seconds * double(total - done) / double(done));
    }
    m_detail->setText(parts.join(QStringLiteral(" · ")));
}

void ImportProgressPanel::end() { hide(); }

QString ImportProgressPanel::fileText() const { return m_file->text(); }
QString ImportProgressPanel::detailText() const { return m_detail->text(); }
int ImportProgressPanel::percent() const { return m_bar->value() / 10; }

} // namespace stepscope::gui

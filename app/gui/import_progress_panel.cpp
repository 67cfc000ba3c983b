#include "app/gui/import_progress_panel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace stepscope::gui {

namespace {
// A label that elides its text in the middle to the width it is given (the start of a file name
// and its extension both stay readable); the full text is its tooltip.
class MiddleElidedLabel : public QLabel {
public:
    using QLabel::QLabel;
    void setFullText(const QString &text) {
        m_full = text;
        setToolTip(text);
        updateGeometry();
        update();
    }
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override { return {80, QLabel::minimumSizeHint().height()}; }
    QSize sizeHint() const override { return {fontMetrics().horizontalAdvance(m_full) + 4, QLabel::sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent *) override {
        QPainter p(this);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(m_full, Qt::ElideMiddle, contentsRect().width()));
    }

private:
    QString m_full;
};

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
    : QFrame(parent), m_title(new QLabel(this)), m_file(new MiddleElidedLabel(this)), m_bar(new QProgressBar(this)),
      m_detail(new QLabel(this)), m_note(new QLabel(this)), m_cancel(new QPushButton(tr("Cancel"), this)) {
    setObjectName(QStringLiteral("importProgressPanel"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // Title and file on one line, the bar with Cancel below it, the figures under the bar.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(4);
    auto *top = new QHBoxLayout;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    top->addWidget(m_title);
    top->addWidget(m_file, 1);
    layout->addLayout(top);
    auto *middle = new QHBoxLayout;
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(true);
    middle->addWidget(m_bar, 1);
    m_cancel->setToolTip(tr("Stop the import; the session that was open stays as it was (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));  // live only while the panel is shown
    middle->addWidget(m_cancel);
    layout->addLayout(middle);
    layout->addWidget(m_detail);
    m_note->setWordWrap(true);
    m_note->hide();
    layout->addWidget(m_note);
    connect(m_cancel, &QPushButton::clicked, this, &ImportProgressPanel::cancelRequested);
    hide();
}

void ImportProgressPanel::begin(const QString &what) {
    m_title->setText(tr("Importing %1 —").arg(what));
    static_cast<MiddleElidedLabel *>(m_file)->setFullText(tr("looking for profiles and metrics…"));
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
    m_bar->setFormat(tr("%p%"));
    m_detail->setText(tr("starting…"));
    m_cancel->setEnabled(true);
    m_cancel->setText(tr("Cancel"));
    setNote({});
    m_clock.start();
    show();
}

void ImportProgressPanel::update(qint64 done, qint64 total, const QString &file, qint64 eventsDone) {
    if (total > 0 && done >= total) {
        // All read: what is left (the last file's events, indexes, summaries) has no byte count.
        m_bar->setRange(0, 0);
        m_detail->setText(tr("all %1 MB read · finishing the session (events, indexes, summaries)…").arg(total / 1e6, 0, 'f', 1));
        return;
    }
    m_bar->setRange(0, 1000);
    m_bar->setValue(total > 0 ? int(done * 1000 / total) : 0);
    auto *label = static_cast<MiddleElidedLabel *>(m_file);
    if (label->toolTip() != file) {
        label->setFullText(QFileInfo(file).fileName());
        label->setToolTip(file);  // the whole path
    }
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

void ImportProgressPanel::setNote(const QString &note) {
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void ImportProgressPanel::showOpening() {
    if (!isVisible()) return;
    m_bar->setRange(0, 0);
    m_detail->setText(tr("imported · opening the session…"));
    m_cancel->setEnabled(false);
    repaint();
}

void ImportProgressPanel::end() { hide(); }

bool ImportProgressPanel::finishing() const { return m_bar->maximum() == 0; }

QString ImportProgressPanel::fileText() const { return static_cast<MiddleElidedLabel *>(m_file)->fullText(); }
QString ImportProgressPanel::detailText() const { return m_detail->text(); }
QString ImportProgressPanel::noteText() const { return m_note->text(); }
int ImportProgressPanel::percent() const { return m_bar->maximum() == 0 ? 100 : m_bar->value() / 10; }

} // namespace stepscope::gui

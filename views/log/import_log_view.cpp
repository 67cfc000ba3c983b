#include "views/log/import_log_view.h"

#include "models/store/import_log_code.h"
#include "models/store/session_reader.h"

#include <QHeaderView>
#include <QPainter>
#include <QTimer>

namespace stepscope {

ImportLogView::ImportLogView(SessionModel *session, QWidget *parent) : QTableWidget(parent), m_session(session) {
    setColumnCount(5);
    setHorizontalHeaderLabels({tr("Severity"), tr("Code"), tr("File"), tr("Position"), tr("Message")});
    horizontalHeader()->setSectionResizeMode(kMessageColumn, QHeaderView::Stretch);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    // A message is never cut: it wraps in its column, rows as tall as their text (measured again when
    // the column's width changes), and its tooltip holds it whole.
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    auto *remeasure = new QTimer(this);
    remeasure->setSingleShot(true);
    remeasure->setInterval(50);
    connect(remeasure, &QTimer::timeout, this, &QTableView::resizeRowsToContents);
    connect(horizontalHeader(), &QHeaderView::sectionResized, remeasure, [remeasure](int column) {
        if (column == kMessageColumn) remeasure->start();
    });
    connect(m_session, &SessionModel::sessionChanged, this, &ImportLogView::reload);
    reload();
}

void ImportLogView::paintEvent(QPaintEvent *event) {
    QTableWidget::paintEvent(event);
    if (rowCount() > 0) return;
    // An empty log is good news; say so instead of showing a blank table.
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString text = !m_session->isOpen()   ? tr("No session open.")
                         : m_session->isPreview() ? tr("Importing: the log follows when the import is complete.")
                                                  : tr("No warnings, errors or skipped files: every record of every source was imported.");
    p.drawText(viewport()->rect(), Qt::AlignCenter, text);
}

void ImportLogView::reload() {
    setRowCount(0);
    if (!m_session->store()) return;
    const auto rows = SessionReader(*m_session->store()).importLog(5000);
    setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const LogRow &r = rows[size_t(i)];
        // Text from files is shown as plain text (QTableWidgetItem never interprets markup).
        setItem(i, 0, new QTableWidgetItem(QString::fromLatin1(severityName(r.severity))));
        // The stable code of what happened (what scripts and tests match); its meaning in the tooltip.
        auto *code = new QTableWidgetItem(QString::fromStdString(r.code));
        const std::string_view meaning = importLogCodeDescription(importLogCodeFromName(r.code));
        code->setToolTip(QString::fromUtf8(meaning.data(), qsizetype(meaning.size())).toHtmlEscaped());
        setItem(i, 1, code);
        const QString file = QString::fromStdString(r.file);
        auto *fileItem = new QTableWidgetItem(file.section('/', -1));
        fileItem->setToolTip(file.toHtmlEscaped());  // tooltips guess rich text
        setItem(i, 2, fileItem);
        setItem(i, 3, new QTableWidgetItem(QString::fromStdString(r.position)));
        auto *message = new QTableWidgetItem(QString::fromStdString(r.message));
        message->setToolTip(message->text().toHtmlEscaped());
        setItem(i, kMessageColumn, message);
    }
    resizeColumnToContents(0);
    resizeColumnToContents(1);
    resizeColumnToContents(2);
    resizeRowsToContents();
}

} // namespace stepscope

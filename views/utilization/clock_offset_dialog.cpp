#include "views/utilization/clock_offset_dialog.h"

#include "models/text/duration_text.h"
#include "models/store/session_reader.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>

namespace stepscope {

namespace {
enum Column { Path, Format, Anchor, Offset, ColumnCount };
constexpr int kSourceIdRole = Qt::UserRole + 1;
constexpr int kStartRole = Qt::UserRole + 2;  // absolute start (without offset), or none
}

ClockOffsetDialog::ClockOffsetDialog(SessionModel *session, QWidget *parent)
    : QDialog(parent), m_session(session), m_table(new QTableWidget(0, ColumnCount, this)), m_note(new QLabel(this)),
      m_error(new QLabel(this)) {
    setWindowTitle(tr("Clock offsets"));
    auto *intro = new QLabel(tr("Metrics are placed on the wall clock; traces through their own epoch anchor. Shift a "
                                "source whose clock is off by typing an offset such as +1.5s, -250ms or 3us. Offsets "
                                "are saved in the session and kept when a source is imported again."),
                             this);
    intro->setWordWrap(true);
    m_table->setHorizontalHeaderLabels({tr("Source"), tr("Format"), tr("Epoch anchor"), tr("Offset")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(Path, QHeaderView::Stretch);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_note->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    auto *align = new QPushButton(tr("Place selected trace's start at the metrics' start"), this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    layout->addWidget(align);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(align, &QPushButton::clicked, this, &ClockOffsetDialog::alignSelectedToMetrics);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (apply()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(760, 380);
    load();
}

void ClockOffsetDialog::load() {
    m_table->setRowCount(0);
    SessionStore *store = m_session->store();
    if (!store) return;
    SessionReader reader(*store);
    std::map<int64_t, std::pair<bool, bool>> anchor;  // source -> (has runs, all runs have an epoch)
    std::map<int64_t, int64_t> start;                 // source -> first slice, absolute
    for (const RunRow &run : reader.runs()) {
        auto &a = anchor.try_emplace(run.sourceId, true, true).first->second;
        a.second = a.second && run.hasEpoch;
        const NsRange r = reader.runTimeRange(run.id);
        if (r.valid()) start.try_emplace(run.sourceId, r.start);  // includes the source's offset
    }
    QStringList unanchored;
    for (const SourceRow &s : reader.sources()) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto *path = new QTableWidgetItem(QString::fromStdString(s.path));
        path->setData(kSourceIdRole, qint64(s.id));
        if (start.count(s.id)) path->setData(kStartRole, qint64(start[s.id] - s.clockOffsetNs));
        path->setToolTip(path->text().toHtmlEscaped());  // tooltips guess rich text
        const auto a = anchor.find(s.id);
        const QString anchorText = a == anchor.end() ? tr("wall clock (metrics)") : a->second.second ? tr("yes") : tr("none");
        if (a != anchor.end() && !a->second.second) unanchored << QString::fromStdString(s.path);
        const QString cells[] = {QString(), QString::fromStdString(s.format), anchorText,
                                 QString::fromStdString(DurationText::format(s.clockOffsetNs))};
        m_table->setItem(row, Path, path);
        for (int c = Format; c < ColumnCount; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c != Offset) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            m_table->setItem(row, c, item);
        }
        m_table->item(row, Path)->setFlags(path->flags() & ~Qt::ItemIsEditable);
    }
    m_note->setText(unanchored.isEmpty()
                        ? tr("Every trace carries an epoch anchor.")
                        : tr("No epoch anchor in: %1. Its times start at the trace's own zero, so it cannot line up "
                             "with the metrics by itself: give it an offset, or select it and place its start at "
                             "the metrics' start.")
                              .arg(unanchored.join(QStringLiteral(", "))));
}

void ClockOffsetDialog::alignSelectedToMetrics() {
    const int row = m_table->currentRow();
    if (row < 0 || !m_session->store()) return;
    const QVariant start = m_table->item(row, Path)->data(kStartRole);
    std::optional<int64_t> metricsStart;
    try {
        metricsStart = SessionReader(*m_session->store()).firstMetricTime();
    } catch (const StoreError &e) {
        m_error->setText(QString::fromStdString(e.what()));
        return;
    }
    if (!start.isValid() || !metricsStart) {
        m_error->setText(tr("Select a trace, in a session that has metrics."));
        return;
    }
    m_table->item(row, Offset)->setText(QString::fromStdString(DurationText::format(*metricsStart - start.toLongLong())));
    m_error->clear();
}

QString ClockOffsetDialog::problem() const { return m_error->text(); }

bool ClockOffsetDialog::apply() {
    SessionStore *store = m_session->store();
    if (!store) return true;
    if (store->mode() == SessionStore::Mode::ReadOnly) {
        m_error->setText(tr("This session is open read-only; offsets cannot be saved."));
        return false;
    }
    std::vector<std::pair<std::string, int64_t>> changes;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const std::string path = m_table->item(row, Path)->text().toStdString();
        std::string why;
        const auto ns = DurationText::parse(m_table->item(row, Offset)->text().toStdString(), &why);
        if (!ns) {
            m_error->setText(QString::fromStdString(why));
            m_table->setCurrentCell(row, Offset);
            return false;
        }
        if (*ns != store->clockOffsetNs(path)) changes.emplace_back(path, *ns);
    }
    try {
        for (const auto &[path, ns] : changes) store->setClockOffsetNs(path, ns);
    } catch (const StoreError &e) {  // busy or damaged file: say so in the dialog, which stays open
        m_error->setText(tr("Offsets not saved: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    m_error->clear();
    if (!changes.empty()) m_session->notifyChanged();
    return true;
}

} // namespace stepscope

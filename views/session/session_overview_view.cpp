#include "views/session/session_overview_view.h"

#include <QHeaderView>
#include <QTreeWidgetItemIterator>

#include <algorithm>

#include <map>

namespace stepscope {

namespace {
QString fileName(const std::string &path) {
    const auto slash = path.find_last_of('/');
    return QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
}
} // namespace

SessionOverviewView::SessionOverviewView(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QTreeWidget(parent), m_session(session), m_time(time) {
    setColumnCount(4);
    setHeaderLabels({tr("Item"), tr("Kind"), tr("Events"), tr("Status")});
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c) header()->setSectionResizeMode(c, QHeaderView::Interactive);
    header()->setMinimumSectionSize(40);
    setMinimumWidth(300);
    setTextElideMode(Qt::ElideMiddle);
    setRootIsDecorated(true);
    setAlternatingRowColors(true);
    connect(m_session, &SessionModel::sessionChanged, this, &SessionOverviewView::reload);
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) {
        const QVariant runId = item->data(0, Qt::UserRole);
        if (!runId.isValid() || !m_session->store()) return;
        const NsRange r = SessionReader(*m_session->store()).runTimeRange(runId.toLongLong());
        if (r.valid()) m_time->setRange(r);
    });
    reload();
}

void SessionOverviewView::reload() {
    clear();
    SessionStore *store = m_session->store();
    if (!store) return;
    SessionReader reader(*store);
    std::map<int64_t, QTreeWidgetItem *> sourceItems;
    for (const SourceRow &s : reader.sources()) {
        auto *item = new QTreeWidgetItem(this, {fileName(s.path), QString::fromStdString(s.format),
                                                QString::number(s.events), QString::fromStdString(s.status)});
        item->setToolTip(0, QString::fromStdString(s.path).toHtmlEscaped());  // tooltips guess rich text
        if (s.warnings) item->setText(3, tr("%1, %n warning(s)", nullptr, int(s.warnings)).arg(QString::fromStdString(s.status)));
        sourceItems[s.id] = item;
    }
    for (const RunRow &r : reader.runs()) {
        QTreeWidgetItem *parentItem = sourceItems.count(r.sourceId) ? sourceItems[r.sourceId] : invisibleRootItem();
        const auto tracks = reader.tracks(r.id);
        int64_t slices = 0;  // the run's count is its tracks' (one count over the slices, not two)
        for (const TrackRow &t : tracks) slices += t.slices;
        auto *runItem = new QTreeWidgetItem(parentItem, {QString::fromStdString(r.name), tr("run"), QString::number(slices),
                                                         r.hasEpoch ? tr("wall clock") : tr("no epoch anchor")});
        runItem->setData(0, Qt::UserRole, qint64(r.id));
        const auto steps = reader.steps(r.id);
        new QTreeWidgetItem(runItem, {tr("%n step(s)", nullptr, int(steps.size())), tr("steps")});
        for (const TrackRow &t : tracks)
            new QTreeWidgetItem(runItem, {QString::fromStdString(t.name), QString::fromLatin1(trackKindName(t.kind)),
                                          QString::number(t.slices), QString()});
        runItem->setExpanded(true);
    }
    for (const MetricSeriesRow &m : reader.metricSeries()) {
        QTreeWidgetItem *parentItem = sourceItems.count(m.sourceId) ? sourceItems[m.sourceId] : invisibleRootItem();
        QString name = QString::fromStdString(m.name);
        if (m.device) name += QStringLiteral(" [%1]").arg(*m.device);
        new QTreeWidgetItem(parentItem, {name, tr("metric (%1)").arg(QString::fromStdString(m.unit)),
                                         QString::number(m.samples), QString()});
    }
    for (auto &[id, item] : sourceItems) item->setExpanded(true);
    for (QTreeWidgetItemIterator it(this); *it; ++it)
        for (int c = 0; c < columnCount(); ++c)
            if ((*it)->toolTip(c).isEmpty() && !(*it)->text(c).isEmpty()) (*it)->setToolTip(c, (*it)->text(c).toHtmlEscaped());
    fitColumns();
}

void SessionOverviewView::resizeEvent(QResizeEvent *event) {
    QTreeWidget::resizeEvent(event);
    fitColumns();
}

void SessionOverviewView::fitColumns() {
    const int w = viewport()->width();
    header()->resizeSection(1, std::min(sizeHintForColumn(1), w / 4));
    header()->resizeSection(2, sizeHintForColumn(2));
    header()->resizeSection(3, std::min(sizeHintForColumn(3), w / 5));
}

} // namespace stepscope

#include "views/annotations/saved_view_list_view.h"

#include "models/analysis/service/analysis_model.h"
#include "views/annotations/timeline_layout_state.h"
#include "views/timeline/timeline_view.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QListWidget>
#include <QMenu>
#include <QToolButton>
#include <QVBoxLayout>

namespace stepscope {

namespace {
QToolButton *button(QWidget *parent, const QString &text, const QString &tip) {
    auto *b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    return b;
}
} // namespace

SavedViewListView::SavedViewListView(const SessionModels &models, TimelineView *timeline, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_analysis(models.analysis), m_time(models.time), m_timeline(timeline), m_model(models.savedViews),
      m_list(new QListWidget(this)), m_findingMenu(new QMenu(this)) {
    setObjectName(QStringLiteral("savedViewList"));
    auto *save = button(this, tr("Save View…"), tr("Save the visible range and the timeline's track layout"));
    auto *remove = button(this, tr("Delete"), tr("Delete the selected saved view"));
    auto *prev = button(this, QStringLiteral("◀"), tr("Previous saved view"));
    auto *next = button(this, QStringLiteral("▶"), tr("Next saved view"));
    auto *fromFinding = button(this, tr("From Finding"), tr("One saved view per piece of a finding's evidence"));
    fromFinding->setMenu(m_findingMenu);
    fromFinding->setPopupMode(QToolButton::InstantPopup);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    for (QToolButton *b : {save, remove, prev, next, fromFinding}) bar->addWidget(b);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_list, 1);
    m_list->setToolTip(tr("Click to show a saved view; double-click to rename"));

    connect(m_model, &SavedViewModel::changed, this, &SavedViewListView::reload);
    connect(m_model, &SavedViewModel::currentChanged, this, [this](int i) {
        QSignalBlocker block(m_list);
        m_list->setCurrentRow(i);
    });
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) { apply(m_list->row(item)); });
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem *item) {
        const int row = m_list->row(item);
        const SavedView &v = m_model->views()[size_t(row)];
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename saved view"), tr("Name:"), QLineEdit::Normal,
                                                   QString::fromStdString(v.name), &ok);
        if (ok && !name.trimmed().isEmpty()) m_model->rename(v.id, name.trimmed().toStdString());
    });
    connect(save, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save view"), tr("Name:"), QLineEdit::Normal,
                                                   tr("View %1").arg(m_model->views().size() + 1), &ok);
        if (ok && !name.trimmed().isEmpty()) saveCurrent(name.trimmed());
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row >= 0 && row < int(m_model->views().size())) m_model->remove(m_model->views()[size_t(row)].id);
    });
    connect(prev, &QToolButton::clicked, this, &SavedViewListView::previous);
    connect(next, &QToolButton::clicked, this, &SavedViewListView::next);
    connect(m_findingMenu, &QMenu::aboutToShow, this, &SavedViewListView::fillFindingMenu);
    reload();
}

void SavedViewListView::reload() {
    QSignalBlocker block(m_list);
    m_list->clear();
    for (const SavedView &v : m_model->views()) m_list->addItem(QString::fromStdString(v.name));
    m_list->setCurrentRow(m_model->current());
}

int64_t SavedViewListView::saveCurrent(const QString &name) {
    SavedView v;
    v.name = name.toStdString();
    v.startNs = m_time->range().start;
    v.endNs = m_time->range().end;
    if (m_timeline) v.layout = TimelineLayoutState::capture(*m_timeline);
    const int64_t id = m_model->add(v);
    if (id) m_model->select(int(m_model->views().size()) - 1);
    return id;
}

void SavedViewListView::apply(int index) {
    const SavedView *v = m_model->select(index);
    if (!v) return;
    const SavedView copy = *v;
    if (m_timeline) TimelineLayoutState::apply(*m_timeline, copy.layout);
    m_time->setRange({copy.startNs, copy.endNs});
}

void SavedViewListView::next() {
    if (m_model->next()) apply(m_model->current());
}

void SavedViewListView::previous() {
    if (m_model->previous()) apply(m_model->current());
}

int SavedViewListView::addFromFinding(int64_t runId, int index) {
    const RunAnalysis *a = m_analysis->analysisOrStart(runId);
    if (!a || index < 0 || index >= int(a->findings.size())) return 0;
    const int added = m_model->addEvidence(a->findings[size_t(index)], a->steps,
                                           m_timeline ? TimelineLayoutState::capture(*m_timeline) : std::string());
    if (added > 0) apply(m_model->current());
    return added;
}

void SavedViewListView::fillFindingMenu() {
    m_findingMenu->clear();
    AnalysisModel *analysis = m_analysis;
    for (const RunRow &run : analysis->runs()) {
        const RunAnalysis *a = analysis->analysisOrStart(run.id);
        if (!a) {
            if (analysis->pending(run.id))
                m_findingMenu->addAction(tr("%1: still being analysed…").arg(QString::fromStdString(run.name)))->setEnabled(false);
            continue;
        }
        for (int i = 0; i < int(a->findings.size()); ++i) {
            const Finding &f = a->findings[size_t(i)];
            const int n = int(SavedViewModel::evidenceViews(f, a->steps).size());
            if (n == 0) continue;
            QAction *act = m_findingMenu->addAction(tr("%1 (%n view(s))", nullptr, n).arg(QString::fromStdString(f.title)));
            const int64_t runId = run.id;
            connect(act, &QAction::triggered, this, [this, runId, i] { addFromFinding(runId, i); });
        }
    }
    if (m_findingMenu->isEmpty()) m_findingMenu->addAction(tr("No findings with evidence"))->setEnabled(false);
}

} // namespace stepscope

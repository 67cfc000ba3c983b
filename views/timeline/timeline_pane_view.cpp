#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/capture_picker.h"

#include "models/analysis/service/analysis_model.h"
#include "models/store/session_reader.h"
#include "views/timeline/critical_path_marks.h"

#include <algorithm>
#include <climits>

#include <QAction>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace stepscope {

TimelinePaneView::TimelinePaneView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_analysis(models.analysis), m_timeline(new TimelineView(models, this)),
      m_search(new TimelineSearchModel(m_timeline->model(), this)), m_searchField(new QLineEdit(this)),
      m_hitLabel(new QLabel(this)), m_stepBox(new QSpinBox(this)), m_align(new QToolButton(this)),
      m_flows(new QToolButton(this)), m_path(new QToolButton(this)) {
    setObjectName(QStringLiteral("timelinePane"));
    m_timeline->setSearch(m_search);  // every hit in view is outlined
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 2);
    m_searchField->setPlaceholderText(tr("Search slices by name (Enter: next, Shift+Enter: previous)"));
    m_searchField->setClearButtonEnabled(true);
    m_searchField->setMaximumWidth(380);
    bar->addWidget(m_searchField);
    auto *prev = new QToolButton(this);
    prev->setText(QStringLiteral("◀"));
    prev->setToolTip(tr("Previous hit"));
    auto *next = new QToolButton(this);
    next->setText(QStringLiteral("▶"));
    next->setToolTip(tr("Next hit"));
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(m_hitLabel);
    bar->addStretch(1);
    m_capturePicker = new CapturePicker(models.session, models.time, this);
    connect(m_capturePicker, &CapturePicker::captureShown, m_timeline, &TimelineView::focusRuns);
    bar->addWidget(m_capturePicker);
    bar->addWidget(new QLabel(tr("Step"), this));
    m_stepBox->setRange(0, 1'000'000'000);
    m_stepBox->setToolTip(tr("Zoom every view to this step (Enter)"));
    bar->addWidget(m_stepBox);
    auto *go = new QToolButton(this);
    go->setText(tr("Go"));
    go->setObjectName(QStringLiteral("goToStep"));
    m_stepBox->setObjectName(QStringLiteral("stepBox"));
    bar->addWidget(go);
    m_align->setText(tr("Align ranks"));
    m_align->setObjectName(QStringLiteral("alignRanks"));
    m_align->setCheckable(true);
    m_align->setToolTip(tr("Stack the runs (ranks) so that this step starts at the same x on each; again: recorded "
                           "times (R on the timeline, at the step under the mouse)"));
    bar->addWidget(m_align);
    m_flows->setText(tr("Flows"));
    m_flows->setCheckable(true);
    m_flows->setChecked(m_timeline->flowsVisible());
    m_flows->setToolTip(tr("Show launch → kernel arrows (drawn when zoomed in)"));
    bar->addWidget(m_flows);
    m_path->setText(tr("Critical path"));
    m_path->setObjectName(QStringLiteral("criticalPath"));
    m_path->setCheckable(true);
    m_path->setChecked(QSettings().value(QStringLiteral("timeline/criticalPath"), false).toBool());
    m_path->setToolTip(tr("Mark each step's critical path — the chain of dependent work that sets the step's time — "
                          "along the tracks it runs on, in its categories' colours (Ctrl+Shift+P)"));
    m_path->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    bar->addWidget(m_path);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_timeline, 1);

    connect(m_searchField, &QLineEdit::returnPressed, this, [this] {
        runSearch(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier);
    });
    connect(prev, &QToolButton::clicked, this, [this] { runSearch(true); });
    connect(next, &QToolButton::clicked, this, [this] { runSearch(false); });
    connect(m_searchField, &QLineEdit::textChanged, this, [this](const QString &t) {
        if (t.isEmpty()) m_search->search({});
    });
    connect(m_search, &TimelineSearchModel::resultsChanged, this, &TimelinePaneView::updateHitLabel);
    connect(m_search, &TimelineSearchModel::busyChanged, this, &TimelinePaneView::updateHitLabel);
    connect(m_search, &TimelineSearchModel::currentChanged, this, [this](int) {
        updateHitLabel();
        if (const auto *hit = m_search->currentHit()) m_timeline->revealSlice(hit->sliceId);
    });
    // After Go (or Enter in the box) the keys belong to the timeline again: W/A/S/D work at once.
    // editingFinished also comes when the box loses focus; then focus has gone elsewhere on purpose.
    auto goToStep = [this](bool takeFocus) {
        if (!m_timeline->goToStep(m_stepBox->value())) m_hitLabel->setText(tr("no step %1").arg(m_stepBox->value()));
        if (takeFocus) m_timeline->setFocus(Qt::OtherFocusReason);
    };
    connect(go, &QToolButton::clicked, this, [goToStep] { goToStep(true); });
    connect(m_stepBox, &QSpinBox::editingFinished, this, [this, goToStep] { goToStep(m_stepBox->hasFocus()); });
    connect(m_flows, &QToolButton::toggled, m_timeline, &TimelineView::setFlowsVisible);
    // The Step box follows the view: the step at its centre (after a click on a bar or a step number,
    // a zoom or a pan), unless the user is typing in it.
    connect(models.time, &TimeRangeController::rangeChanged, this, [this](NsRange r) {
        if (m_stepBox->hasFocus() || !r.valid()) return;
        if (const auto step = m_timeline->stepNear(r.start + r.duration() / 2)) {
            const QSignalBlocker block(m_stepBox);
            m_stepBox->setValue(int(std::clamp<int64_t>(*step, m_stepBox->minimum(), m_stepBox->maximum())));
        }
    });
    connect(m_timeline, &TimelineView::findAllRequested, this, [this](const QString &name) { search(name); });
    connect(m_path, &QToolButton::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("timeline/criticalPath"), on);
        updateCriticalPath();
    });
    if (m_analysis) connect(m_analysis, &AnalysisModel::changed, this, &TimelinePaneView::updateCriticalPath);
    connect(m_timeline->model(), &TimelineModel::modelReset, this, &TimelinePaneView::updateCriticalPath);
    connect(m_align, &QToolButton::clicked, this, [this](bool on) {
        // The box's step, else the one in the middle of the view.
        const NsRange r = m_timeline->timeController()->range();
        const auto centre = m_timeline->stepNear(r.start + r.duration() / 2);
        if (!on) m_timeline->clearAlignment();
        else if (!m_timeline->alignRunsAtStep(m_stepBox->value()) && !(centre && m_timeline->alignRunsAtStep(*centre)))
            m_hitLabel->setText(tr("no step %1 on two runs").arg(m_stepBox->value()));
        m_align->setChecked(m_timeline->alignedStep().has_value());
    });
    connect(m_timeline, &TimelineView::alignmentChanged, this, [this](bool aligned, qint64 step) {
        m_align->setChecked(aligned);
        if (aligned) m_stepBox->setValue(int(step));
    });
    auto showAlign = [this] {
        m_align->setVisible(m_timeline->canAlignRuns());
        m_align->setChecked(m_timeline->alignedStep().has_value());
    };
    connect(m_timeline->model(), &TimelineModel::modelReset, this, showAlign);
    showAlign();
    updateCriticalPath();
    auto *find = new QAction(tr("Search slices across the whole session"), this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QAction::triggered, this, [this] { m_searchField->setFocus(); m_searchField->selectAll(); });
    addAction(find);
}

void TimelinePaneView::setCriticalPathShown(bool on) { m_path->setChecked(on); }
bool TimelinePaneView::criticalPathShown() const { return m_path->isChecked(); }

void TimelinePaneView::updateCriticalPath() {
    m_timeline->setCriticalPath(m_path->isChecked() && m_analysis ? criticalPathMarks(*m_analysis, *m_timeline->model())
                                                                 : std::vector<CriticalPathMark>{});
}

void TimelinePaneView::runSearch(bool backwards) {
    const QString text = m_searchField->text().trimmed();
    if (text != m_search->text()) {
        m_search->requestSearch(text, [this] {
            // Start from what is on screen, like a browser's find.
            m_search->seek(m_timeline->timeController()->range().start);
            if (m_search->current() < 0) m_search->next();
        });
        return;
    }
    if (m_search->busy()) return;  // the hits are on their way
    backwards ? m_search->previous() : m_search->next();
}

void TimelinePaneView::setBarVisible(bool on) {
    auto *bar = layout() && layout()->count() > 0 ? layout()->itemAt(0)->layout() : nullptr;
    for (int i = 0; bar && i < bar->count(); ++i)
        if (QWidget *w = bar->itemAt(i)->widget()) w->setVisible(on);
    m_align->setVisible(on && m_timeline->canAlignRuns());
}

void TimelinePaneView::search(const QString &text) {
    m_searchField->setText(text);
    m_search->requestSearch(text.trimmed(), [this] { showNearestHit(); });
}

void TimelinePaneView::showNearestHit() {
    const auto &hits = m_search->hits();
    if (hits.empty()) return;
    const NsRange visible = m_timeline->timeController()->range();
    auto it = std::lower_bound(hits.begin(), hits.end(), visible.start,
                               [](const TimelineSearchModel::Hit &h, int64_t t) { return h.startNs < t; });
    // A hit that starts before the range but reaches into it is on screen too.
    if (it != hits.begin() && std::prev(it)->startNs + std::prev(it)->durNs > visible.start &&
        (it == hits.end() || it->startNs >= visible.end))
        --it;
    else if (it == hits.end() || it->startNs >= visible.end) {
        // Nothing on screen: the nearest hit, before or after the visible range.
        const int64_t after = it == hits.end() ? INT64_MAX : it->startNs - visible.end;
        const int64_t before = it == hits.begin() ? INT64_MAX : visible.start - (std::prev(it)->startNs + std::prev(it)->durNs);
        if (before < after) --it;
    }
    m_search->seek(it->startNs);
}

void TimelinePaneView::updateHitLabel() {
    const int n = m_search->hitCount();
    if (m_search->text().isEmpty()) m_hitLabel->clear();
    else if (m_search->busy()) m_hitLabel->setText(tr("searching…"));
    else if (n == 0) m_hitLabel->setText(tr("no matches"));
    else m_hitLabel->setText(tr("%1 / %L2").arg(m_search->current() + 1).arg(n));
}

void TimelinePaneView::resetStepBox() {
    const QSignalBlocker block(m_stepBox);
    if (const std::optional<int64_t> aligned = m_timeline->alignedStep()) {
        m_stepBox->setValue(int(*aligned));
        return;
    }
    m_stepBox->setValue(m_stepBox->minimum());
    if (!m_session->store()) return;
    try {  // the first run's first step: steps are often numbered from 1
        const SessionReader reader(*m_session->store());
        for (const RunRow &run : reader.runs())
            if (const std::vector<StepRow> steps = reader.steps(run.id); !steps.empty()) {
                m_stepBox->setValue(int(std::clamp<int64_t>(steps.front().step, m_stepBox->minimum(), m_stepBox->maximum())));
                return;
            }
    } catch (const StoreError &) {  // a damaged session: the views say so; the box starts from nothing
    }
}

} // namespace stepscope

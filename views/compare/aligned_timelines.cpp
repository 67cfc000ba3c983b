#include "views/compare/aligned_timelines.h"

#include "views/timeline/timeline_pane_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope {

namespace {
std::optional<int64_t> startOf(const AlignedTimelines::StepStarts &steps, int64_t step) {
    for (const auto &[n, start] : steps)
        if (n == step) return start;
    return std::nullopt;
}
} // namespace

AlignedTimelines::AlignedTimelines(QWidget *parent)
    : QWidget(parent), m_baseSession(new SessionModel(this)), m_newSession(new SessionModel(this)),
      m_baseTime(new TimeRangeController(this)), m_newTime(new TimeRangeController(this)), m_baseLabel(new QLabel(this)),
      m_newLabel(new QLabel(this)), m_stepBox(new QSpinBox(this)) {
    m_basePane = new TimelinePaneView(SessionModels::of(m_baseSession, m_baseTime), this);
    m_newPane = new TimelinePaneView(SessionModels::of(m_newSession, m_newTime), this);
    m_stepBox->setRange(0, 0);
    m_stepBox->setToolTip(tr("The step that starts at the same place in both timelines; zooming or panning either moves both"));
    m_alignRow = new QWidget(this);
    auto *top = new QHBoxLayout(m_alignRow);
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(new QLabel(tr("Align at step"), m_alignRow));
    m_stepBox->setParent(m_alignRow);
    top->addWidget(m_stepBox);
    top->addStretch(1);
    auto pane = [this](QLabel *label, TimelinePaneView *view) {
        auto *w = new QWidget(this);
        auto *l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        l->addWidget(label);
        l->addWidget(view, 1);
        return w;
    };
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(pane(m_baseLabel, m_basePane));
    split->addWidget(pane(m_newLabel, m_newPane));
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_alignRow);
    layout->addWidget(split, 1);
    connect(m_baseTime, &TimeRangeController::rangeChanged, this, [this] { follow(m_baseTime, m_newTime, m_offset); });
    connect(m_newTime, &TimeRangeController::rangeChanged, this, [this] { follow(m_newTime, m_baseTime, -m_offset); });
    connect(m_stepBox, &QSpinBox::editingFinished, this, [this] { alignAt(m_stepBox->value()); });
}

bool AlignedTimelines::setSessions(const QString &baseSession, const QString &baseLabel, const StepStarts &baseSteps,
                                   const QString &newSession, const QString &newLabel, const StepStarts &newSteps,
                                   QString *error) {
    try {
        m_baseSession->setStore(std::make_unique<SessionStore>(baseSession.toStdString(), SessionStore::Mode::ReadOnly));
        m_newSession->setStore(std::make_unique<SessionStore>(newSession.toStdString(), SessionStore::Mode::ReadOnly));
    } catch (const std::exception &e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    for (auto [session, time] : {std::pair{m_baseSession, m_baseTime}, std::pair{m_newSession, m_newTime}}) {
        const NsRange extent = session->extent();
        time->setFullRange(extent.valid() ? extent : NsRange{});
    }
    m_baseLabel->setText(tr("<b>base</b> %1").arg(baseLabel.toHtmlEscaped()));
    m_newLabel->setText(tr("<b>new</b> %1").arg(newLabel.toHtmlEscaped()));
    m_baseSteps = baseSteps;
    m_newSteps = newSteps;
    int64_t lo = INT64_MAX, hi = INT64_MIN, first = INT64_MAX;
    for (const auto &[n, start] : m_baseSteps)
        if (startOf(m_newSteps, n)) {
            lo = std::min(lo, n);
            hi = std::max(hi, n);
            first = std::min(first, n);
        }
    if (first == INT64_MAX) return true;  // no step in common: the timelines stay apart
    m_stepBox->setRange(int(std::clamp<int64_t>(lo, 0, INT32_MAX)), int(std::clamp<int64_t>(hi, 0, INT32_MAX)));
    alignAt(first);
    return true;
}

bool AlignedTimelines::alignAt(int64_t step) {
    const auto a = startOf(m_baseSteps, step), b = startOf(m_newSteps, step);
    if (!a || !b) return false;
    m_step = step;
    m_offset = *b - *a;
    m_stepBox->setValue(int(std::clamp<int64_t>(step, 0, INT32_MAX)));
    // Zoom the base to that step (its start to the next step's, else 1/10 of the run); the new follows.
    int64_t end = m_baseTime->fullRange().end;
    for (const auto &[n, start] : m_baseSteps)
        if (start > *a) end = std::min(end, start);
    // With a margin either side, so the step's ends are seen.
    const int64_t span = std::max<int64_t>(end - *a, 1), margin = span / 20;
    m_baseTime->setRange({*a - margin, *a + span + margin});
    return true;
}

void AlignedTimelines::follow(TimeRangeController *from, TimeRangeController *to, int64_t shift) {
    if (m_following) return;
    m_following = true;
    const NsRange r = from->range();
    if (r.valid()) to->setRange({r.start + shift, r.end + shift});
    m_following = false;
}

void AlignedTimelines::setControlsVisible(bool on) {
    m_alignRow->setVisible(on);
    m_basePane->setBarVisible(on);
    m_newPane->setBarVisible(on);
}

void AlignedTimelines::search(const QString &name) {
    m_basePane->search(name);
    m_newPane->search(name);
}

} // namespace stepscope

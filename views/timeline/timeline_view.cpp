#include "views/timeline/timeline_view.h"

#include "views/annotations/timeline_annotation_overlay.h"

#include "models/store/sqlite_statement.h"

#include <QPainter>
#include <QApplication>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace stepscope {

namespace {
constexpr const char *kLayoutSetting = "timeline.tracks";
constexpr const char *kLabelWidthSetting = "timeline/labelWidth";  // QSettings: the user's, not the session's
} // namespace

TimelineView::TimelineView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_model(new TimelineModel(this)),
      m_annotations(new TimelineAnnotationOverlay(models.annotations, models.time, this)),
      m_labelWidth(std::clamp(QSettings().value(kLabelWidthSetting, TimelinePainter::kLabelWidth).toInt(), kMinLabelWidth, kMaxLabelWidth)),
      m_compactRanks(compactRanksSetting()) {
    setObjectName(QStringLiteral("timelineView"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    qApp->installEventFilter(this);  // W/A/S/D under the pointer (eventFilter)
    setMinimumSize(400, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // Incoming ranges are applied by repainting: the range itself lives only in the controller.
    connect(m_time, &TimeRangeController::rangeChanged, this, qOverload<>(&QWidget::update));
    connect(m_time, &TimeRangeController::selectionChanged, this, qOverload<>(&QWidget::update));
    connect(m_model, &TimelineModel::modelReset, this, &TimelineView::applyModelReset);
    connect(m_model, &TimelineModel::detailLoaded, this, qOverload<>(&QWidget::update));
    connect(m_model, &TimelineModel::runOffsetsChanged, this, [this] {
        if (m_selectedSliceId >= 0) {  // the selection moved with its run, and so did its arrows
            m_selectedItem.startNs = m_model->details(m_selectedSliceId).startNs;
            m_selectedFlows = m_model->flowsOf(m_selectedSliceId);
        }
        update();
    });
    if (m_session) {
        connect(m_session, &SessionModel::sessionChanged, this, &TimelineView::reload);
        reload();
    }
}

void TimelineView::setMetricSeries(MetricSeriesModel *metrics) { m_model->setMetricSeries(metrics); }

void TimelineView::reload() {
    SessionStore *store = m_session ? m_session->store() : nullptr;
    m_savedChoices = store ? QByteArray::fromStdString(store->setting(kLayoutSetting)) : QByteArray();
    m_selectedSliceId = -1;
    m_selectedTrack = -1;
    m_selectedFlows.clear();
    m_highlightedRun = -1;
    m_scrollY = 0;  // a new session starts at its first track, not where the last one was scrolled
    m_foldedForFocus.clear();
    m_model->load(store);  // emits modelReset: choices restored, layout rebuilt
    if (!m_time->fullRange().valid() && m_model->extent().valid()) m_time->setFullRange(m_model->extent());
    if (m_alignedStep) {  // the model came back as recorded
        m_alignedStep.reset();
        m_alignedAt = 0;
        m_alignedRuns.clear();
        emit alignmentChanged(false, 0);
    }
}

void TimelineView::relayout() {
    m_layout.rebuild(*m_model);
    setScrollY(m_scrollY);
    update();
}

void TimelineView::applyModelReset() {
    m_layout.restoreChoices(*m_model, m_savedChoices);
    m_layout.setCompactTracks({});  // track indices of the old model
    relayout();
    applyCompact();  // a job opens compact when the user left it so
}

void TimelineView::saveChoices() {
    m_savedChoices = m_layout.saveChoices(*m_model);
    SessionStore *store = m_session ? m_session->store() : nullptr;
    if (store && store->mode() == SessionStore::Mode::ReadWrite) {
        try {
            store->setSetting(kLayoutSetting, m_savedChoices.toStdString());
        } catch (const StoreError &) {
            // Busy or read-only file: the choice still holds for this window.
        }
    }
    relayout();
}

void TimelineView::setScrollY(int y) {
    const int visible = height() - TimelinePainter::kHeaderHeight;
    const int clamped = std::clamp(y, 0, std::max(0, m_layout.contentHeight() - visible + 20));
    if (clamped == m_scrollY) return;
    m_scrollY = clamped;
    update();
}

void TimelineView::ensureTrackVisible(int track) {
    if (!m_layout.trackRow(track) && track >= 0 && track < int(m_model->tracks().size())) {
        // A search hit or a selection on a track not drawn: compact ranks get it as one more row,
        // a folded group unfolds, a hidden track shows (for a look, not a choice: nothing saved).
        const TimelineTrack &t = m_model->tracks()[size_t(track)];
        if (m_layout.isCompact()) {
            std::vector<int> compact = m_layout.compactTracks();
            compact.push_back(track);
            m_layout.setCompactTracks(std::move(compact));
        } else {
            m_layout.setHidden(track, false);
            m_layout.setCollapsed(t.group, false);
            if (const int run = m_model->groups()[size_t(t.group)].parent; run >= 0) m_layout.setCollapsed(run, false);
        }
        relayout();
    }
    const TimelineRow *row = m_layout.trackRow(track);
    if (!row) return;
    const int visible = height() - TimelinePainter::kHeaderHeight;
    if (row->y < m_scrollY) setScrollY(row->y - 10);
    else if (row->y + row->height > m_scrollY + visible) setScrollY(row->y + row->height - visible + 10);
}

int TimelineView::labelWidth() const { return std::min(m_labelWidth, std::max(kMinLabelWidth, width() / 2)); }

void TimelineView::setLabelWidth(int width, bool remember) {
    const int w = std::clamp(width, kMinLabelWidth, kMaxLabelWidth);
    if (remember) QSettings().setValue(kLabelWidthSetting, w);
    if (w == m_labelWidth) return;
    m_labelWidth = w;
    update();
}

bool TimelineView::onLabelEdge(QPoint pos) const { return std::abs(pos.x() - labelWidth()) <= 3; }

void TimelineView::setFlowsVisible(bool visible) {
    if (visible == m_showFlows) return;
    m_showFlows = visible;
    update();
}

void TimelineView::setGroupCollapsed(int group, bool collapsed) {
    m_layout.setCollapsed(group, collapsed);
    saveChoices();
}

void TimelineView::setTrackHidden(int track, bool hidden) {
    m_layout.setHidden(track, hidden);
    saveChoices();
}

void TimelineView::showAllTracks() {
    m_layout.showAllTracks();
    saveChoices();
}

void TimelineView::moveTrack(int track, int index) {
    if (m_layout.moveTrack(*m_model, track, index)) saveChoices();
}

bool TimelineView::goToStep(int64_t step) {
    const NsRange r = m_model->stepRange(step);
    if (!r.valid()) return false;
    const int64_t margin = std::max<int64_t>(1, r.duration() / 50);
    m_time->setRange({r.start - margin, r.end + margin});
    return true;
}

void TimelineView::selectSlice(int64_t sliceId) { selectDetails(m_model->details(sliceId), false); }

void TimelineView::revealSlice(int64_t sliceId) { selectDetails(m_model->details(sliceId), true); }

void TimelineView::setSearch(const TimelineSearchModel *search) {
    if (m_search) disconnect(m_search, nullptr, this, nullptr);
    m_search = search;
    if (m_search) connect(m_search, &TimelineSearchModel::resultsChanged, this, qOverload<>(&QWidget::update));
    update();
}

void TimelineView::selectDetails(const SliceDetails &d, bool reveal) {
    m_selectedSliceId = d.valid() ? d.id : -1;
    m_selectedTrack = d.valid() ? d.track : -1;
    m_selectedItem = TimelineItem{};
    m_selectedFlows = d.valid() ? m_model->flowsOf(d.id) : std::vector<TimelineFlow>{};
    if (d.valid()) {
        m_selectedItem.startNs = d.startNs;
        m_selectedItem.durNs = d.durNs;
        m_selectedItem.depth = d.depth;
        ensureTrackVisible(d.track);
        const NsRange r = range();
        // Revealing: the slice spans at least a 40th of the view (~30 px), so no merging swallows it;
        // instants and very short slices get a couple of microseconds around them.
        const int64_t widest = std::max<int64_t>(d.durNs * 40, 2'000);
        const int64_t mid = d.startNs + d.durNs / 2;
        if (reveal && r.duration() > widest) {
            m_time->setRange({mid - widest / 2, mid + widest / 2});
        } else if (d.startNs + d.durNs < r.start || d.startNs > r.end) {
            // Bring it into view, keeping the zoom unless the slice is wider than the view.
            const int64_t span = std::max(r.duration(), d.durNs * 3);
            m_time->setRange({mid - span / 2, mid + span / 2});
        }
    }
    update();
    emit sliceSelected(d);
}

void TimelineView::clearSelectedSlice() {
    m_selectedFlows.clear();
    if (m_selectedSliceId < 0 && m_selectedTrack < 0) return;
    m_selectedSliceId = -1;
    m_selectedTrack = -1;
    update();
    emit sliceSelected(SliceDetails{});
}

int64_t TimelineView::timeAt(double x) const {
    const QRect d = TimelinePainter::dataRect(size(), labelWidth());
    const NsRange r = range();
    return r.start + int64_t(std::llround((x - d.left()) * double(r.duration()) / std::max(1, d.width())));
}

double TimelineView::xOf(int64_t t) const {
    const QRect d = TimelinePainter::dataRect(size(), labelWidth());
    const NsRange r = range();
    return d.left() + double(t - r.start) * d.width() / double(std::max<int64_t>(1, r.duration()));
}

void TimelineView::setRangeContinuous(NsRange r) {
    m_time->setRange(r, false);  // committed to the history when the gesture pauses
}

void TimelineView::zoomBy(double factor, int64_t anchor) {
    const NsRange r = range();
    if (!r.valid()) return;
    const double f = std::clamp(factor, 0.01, 100.0);
    const int64_t start = anchor - int64_t(std::llround(double(anchor - r.start) * f));
    const int64_t end = anchor + int64_t(std::llround(double(r.end - anchor) * f));
    setRangeContinuous({start, std::max(end, start + 1)});
}

void TimelineView::panBy(double fraction) {
    const NsRange r = range();
    const int64_t d = int64_t(std::llround(double(r.duration()) * fraction));
    setRangeContinuous({r.start + d, r.end + d});
}

const TimelineHit *TimelineView::hitAt(QPoint pos) const {
    const TimelineHit *best = nullptr;
    for (const TimelineHit &h : m_hits) {
        // One pixel of tolerance either side, exact containment preferred (Qt Creator's rule).
        if (pos.y() < h.rect.top() || pos.y() > h.rect.bottom()) continue;
        if (h.rect.contains(QPointF(pos))) {
            if (!best || !best->rect.contains(QPointF(pos)) || (best->item.block && !h.item.block)) best = &h;
        } else if (!best && pos.x() >= h.rect.left() - 1.5 && pos.x() <= h.rect.right() + 1.5) {
            best = &h;
        }
    }
    return best;
}

void TimelineView::paintEvent(QPaintEvent *) {
    QPainter p(this);
    TimelineFrame f;
    f.model = m_model;
    f.layout = &m_layout;
    f.range = range();
    f.selection = m_time->selection();
    f.origin = m_time->fullRange().valid() ? m_time->fullRange().start : m_model->extent().start;
    if (m_alignedStep) {
        f.origin = m_alignedAt;
        f.alignedStep = m_alignedStep;
    }
    f.highlightedRunGroup = m_highlightedRun;
    f.scrollY = m_scrollY;
    f.size = size();
    f.labelWidth = labelWidth();
    f.selectedSliceId = m_selectedSliceId;
    f.selectedTrack = m_selectedTrack;
    f.selectedItem = m_selectedItem;
    f.showFlows = m_showFlows;
    if (m_search) {
        f.searchHits = &m_search->hits();
        f.longestSearchHit = m_search->longestHit();
    }
    f.selectedFlows = &m_selectedFlows;
    if (!m_criticalPath.empty()) f.criticalPath = &m_criticalPath;
    TimelinePainter::paint(p, f, m_hits, &m_arrows);
    if (m_session && m_session->isOpen() && m_model->tracks().empty()) {
        // A session of summaries only (TensorFlow's analysis files, a metrics log): say so.
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(20, TimelinePainter::kHeaderHeight + 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No trace events in this session: its files hold summaries, not a timeline. "
                      "The Session dock lists what was read and the Import log says why a file gave no events."));
    }
    m_annotations->paint(p, TimelinePainter::dataRect(size(), labelWidth()), [this](int64_t t) { return xOf(t); });
    // Reads cut short by the frame budget continue in the next frame; windows read in the
    // background call for their own frame (detailLoaded).
    if (m_model->budgetExhausted()) QTimer::singleShot(0, this, qOverload<>(&QWidget::update));
}

void TimelineView::setCriticalPath(std::vector<CriticalPathMark> marks) {
    m_criticalPath = std::move(marks);
    update();
}

void TimelineView::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    setScrollY(m_scrollY);
}

} // namespace stepscope

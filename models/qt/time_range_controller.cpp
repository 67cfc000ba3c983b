#include "models/qt/time_range_controller.h"

#include <algorithm>

namespace stepscope {

namespace {
constexpr int64_t kMinWidthNs = 1000;
constexpr size_t kMaxHistory = 200;
} // namespace

TimeRangeController::TimeRangeController(QObject *parent) : QObject(parent) {
    qRegisterMetaType<NsRange>("stepscope::NsRange");
    m_gestureCommit.setSingleShot(true);
    m_gestureCommit.setInterval(kGestureCommitMs);
    connect(&m_gestureCommit, &QTimer::timeout, this, &TimeRangeController::commitHistory);
}

NsRange TimeRangeController::clamp(NsRange r) const {
    if (r.end < r.start) std::swap(r.start, r.end);
    if (r.duration() < kMinWidthNs) {
        const int64_t mid = r.start + r.duration() / 2;
        r = {mid - kMinWidthNs / 2, mid + kMinWidthNs / 2};
    }
    if (m_full.valid()) {
        // Room of one session width past either end: never a range wider than three sessions.
        const int64_t margin = m_full.duration();
        if (r.duration() > m_full.duration() + 2 * margin) r = {m_full.start - margin, m_full.end + margin};
        if (r.start < m_full.start - margin) r = {m_full.start - margin, m_full.start - margin + r.duration()};
        if (r.end > m_full.end + margin) r = {m_full.end + margin - r.duration(), m_full.end + margin};
    }
    return r;
}

void TimeRangeController::setFullRange(NsRange full) {
    if (full == m_full && m_range == full) return;
    m_full = full;
    m_history.clear();
    m_historyPos = -1;
    m_range = full;
    pushHistory(full);
    emit fullRangeChanged(full);
    emit rangeChanged(m_range);
    emit historyChanged();
}

void TimeRangeController::setRange(NsRange range, bool recordHistory) {
    range = clamp(range);
    if (!recordHistory) m_gestureCommit.start();  // a gesture step: commit once it pauses
    if (range == m_range) return;
    m_range = range;
    if (recordHistory) pushHistory(range);
    emit rangeChanged(m_range);
}

void TimeRangeController::commitHistory() {
    m_gestureCommit.stop();
    if (m_historyPos >= 0 && m_history[size_t(m_historyPos)] == m_range) return;
    pushHistory(m_range);
}

void TimeRangeController::pushHistory(NsRange r) {
    if (m_historyPos + 1 < int(m_history.size())) m_history.resize(size_t(m_historyPos + 1));
    m_history.push_back(r);
    if (m_history.size() > kMaxHistory) m_history.erase(m_history.begin());
    m_historyPos = int(m_history.size()) - 1;
    emit historyChanged();
}

void TimeRangeController::setSelection(NsRange selection) {
    if (selection.end < selection.start) std::swap(selection.start, selection.end);
    if (selection == m_selection) return;
    m_selection = selection;
    emit selectionChanged(m_selection);
}

void TimeRangeController::clearSelection() { setSelection({}); }

void TimeRangeController::zoomToSelection() {
    if (m_selection.valid()) setRange(m_selection);
}

void TimeRangeController::back() {
    if (!canGoBack()) return;
    m_range = m_history[size_t(--m_historyPos)];
    emit rangeChanged(m_range);
    emit historyChanged();
}

void TimeRangeController::forward() {
    if (!canGoForward()) return;
    m_range = m_history[size_t(++m_historyPos)];
    emit rangeChanged(m_range);
    emit historyChanged();
}

} // namespace stepscope

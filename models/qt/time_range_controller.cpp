#include "models/qt/time_range_controller.h"

#include <algorithm>

namespace stepscope {

namespace {
constexpr int64_t kMinWidthNs = 1000;
constexpr size_t kMaxHistory = 200;
__extension__ using Wide = __int128;  // sums of two times near the limit
} // namespace

TimeRangeController::TimeRangeController(QObject *parent) : QObject(parent) {
    qRegisterMetaType<NsRange>("stepscope::NsRange");
    m_gestureCommit.setSingleShot(true);
    m_gestureCommit.setInterval(kGestureCommitMs);
    connect(&m_gestureCommit, &QTimer::timeout, this, &TimeRangeController::commitHistory);
}

NsRange TimeRangeController::clamp(NsRange r) const {
    // Every visible range lies within ±2^62 ns and is at most 2^62 ns wide, so a view can subtract
    // its ends, shift them by a run's offset and divide by pixels without overflow: a span that
    // wrapped would have a view step through it one nanosecond at a time (issue #36).
    if (r.end < r.start) std::swap(r.start, r.end);
    r.start = std::clamp(r.start, -kTimeLimitNs, kTimeLimitNs);
    r.end = std::clamp(r.end, -kTimeLimitNs, kTimeLimitNs);
    if (Wide(r.end) - r.start > kTimeLimitNs) r.end = r.start + kTimeLimitNs;
    if (r.duration() < kMinWidthNs) {
        const int64_t mid = r.start + r.duration() / 2;
        r = {mid - kMinWidthNs / 2, mid + kMinWidthNs / 2};
    }
    if (m_full.valid()) {
        // Room of one session width past either end: never a range wider than three sessions, nor
        // beyond the limits above.
        const Wide fullStart = m_full.start, fullEnd = m_full.end;
        const Wide margin = std::min<Wide>(fullEnd - fullStart, kTimeLimitNs);
        Wide lo = std::max<Wide>(fullStart - margin, -kTimeLimitNs);
        Wide hi = std::min<Wide>(fullEnd + margin, kTimeLimitNs);
        if (hi - lo > kTimeLimitNs) {  // a session wider than the limit: the limit's width around its middle
            lo = std::max<Wide>((fullStart + fullEnd) / 2 - kTimeLimitNs / 2, -kTimeLimitNs);
            hi = lo + kTimeLimitNs;
        }
        const int64_t outerStart = int64_t(lo), outerEnd = int64_t(hi);
        if (r.duration() > outerEnd - outerStart) r = {outerStart, outerEnd};
        if (r.start < outerStart) r = {outerStart, outerStart + r.duration()};
        if (r.end > outerEnd) r = {outerEnd - r.duration(), outerEnd};
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

#pragma once
// TimeRangeController is the one shared object for linked zoom (STYLE.md): it holds the visible time
// range, the selected range and the zoom history. Every view gets it in its constructor, applies
// rangeChanged() without re-emitting it, and calls setRange() when the user zooms or pans there.
// Times are absolute Unix-epoch ns (or raw trace ns for sessions without an epoch).

#include "models/store/ns_range.h"

#include <QObject>
#include <QTimer>

#include <cstdint>
#include <vector>

namespace stepscope {

class TimeRangeController : public QObject {
    Q_OBJECT
public:
    explicit TimeRangeController(QObject *parent = nullptr);

    NsRange range() const { return m_range; }
    NsRange fullRange() const { return m_full; }
    NsRange selection() const { return m_selection; }  // invalid when nothing is selected

    // The whole session's extent; resets the visible range and history.
    void setFullRange(NsRange full);
    // Zoom/pan. recordHistory=false for continuous gestures (wheel, drag): the gesture's range is
    // committed to the history by itself kGestureCommitMs after its last step (or by
    // commitHistory()), one entry per gesture — the one debounce every view shares. Clamped to a
    // minimum width of 1 µs. No-op ranges emit nothing.
    void setRange(NsRange range, bool recordHistory = true);
    static constexpr int kGestureCommitMs = 400;
    void commitHistory();
    void setSelection(NsRange selection);
    void clearSelection();

    void zoomToFull() { setRange(m_full); }
    void zoomToSelection();
    bool canGoBack() const { return m_historyPos > 0; }
    bool canGoForward() const { return m_historyPos + 1 < int(m_history.size()); }
    void back();
    void forward();

signals:
    void rangeChanged(stepscope::NsRange range);
    void selectionChanged(stepscope::NsRange selection);
    void fullRangeChanged(stepscope::NsRange full);
    void historyChanged();

private:
    void pushHistory(NsRange r);
    NsRange clamp(NsRange r) const;

    NsRange m_full, m_range, m_selection;
    QTimer m_gestureCommit;
    std::vector<NsRange> m_history;
    int m_historyPos = -1;
};

} // namespace stepscope

Q_DECLARE_METATYPE(stepscope::NsRange)

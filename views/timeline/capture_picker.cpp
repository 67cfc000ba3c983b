#include "views/timeline/capture_picker.h"

#include "models/timeline/capture_clusters.h"
#include "models/text/time_format.h"

namespace stepscope {

namespace {
// A little room either side, so the first and last events are not on the view's edge.
NsRange padded(NsRange r) {
    const int64_t pad = std::max<int64_t>(r.duration() / 50, 1'000);
    return {r.start - pad, r.end + pad};
}
} // namespace

CapturePicker::CapturePicker(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QComboBox(parent), m_session(session), m_time(time) {
    setObjectName(QStringLiteral("capturePicker"));
    setToolTip(tr("The session holds captures recorded apart: show one of them, or all"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    hide();
    // The full range is set when a session opens: the captures are read then.
    connect(m_time, &TimeRangeController::fullRangeChanged, this, &CapturePicker::reload);
    connect(m_time, &TimeRangeController::rangeChanged, this, &CapturePicker::follow);
    connect(this, &QComboBox::activated, this, [this](int item) { showCapture(item - 1); });
}

void CapturePicker::reload() {
    const auto extents = m_session->isOpen() ? m_session->runExtents() : std::vector<SessionModel::RunExtent>{};
    std::vector<NsRange> ranges;
    for (const auto &e : extents) ranges.push_back(e.range);
    m_captures = captureClusters(ranges);
    m_runs.assign(m_captures.size(), {});
    for (const auto &e : extents)
        for (size_t i = 0; i < m_captures.size(); ++i)
            if (e.range.start >= m_captures[i].start && e.range.end <= m_captures[i].end) m_runs[i].push_back(e.runId);
    {
        const QSignalBlocker block(this);
        clear();
        if (!m_captures.empty()) {
            const NsRange full = m_time->fullRange();
            addItem(tr("All captures (%1)").arg(formatTime(full.duration())));
            const int64_t first = m_captures.front().start;
            for (size_t i = 0; i < m_captures.size(); ++i)
                addItem(i == 0 ? tr("Capture 1 of %1 · %2 long").arg(m_captures.size()).arg(formatTime(m_captures[i].duration()))
                               : tr("Capture %1 of %2 · %3 later · %4 long")
                                     .arg(i + 1)
                                     .arg(m_captures.size())
                                     .arg(formatTime(m_captures[i].start - first), formatTime(m_captures[i].duration())));
        }
    }
    setVisible(!m_captures.empty());
    // Opened on the whole span (not a zoom kept from before): the first capture instead.
    if (!m_captures.empty() && m_time->range() == m_time->fullRange()) showCapture(0);
}

void CapturePicker::showCapture(int index) {
    if (index < 0 || index >= int(m_captures.size())) {
        m_time->zoomToFull();
        emit captureShown({});
        return;
    }
    m_time->setRange(padded(m_captures[size_t(index)]));
    emit captureShown(m_runs[size_t(index)]);
}

void CapturePicker::follow(NsRange range) {
    if (m_captures.empty()) return;
    int item = 0;
    for (size_t i = 0; i < m_captures.size(); ++i) {
        const NsRange c = padded(m_captures[i]);
        if (range.start >= c.start && range.end <= c.end) item = int(i) + 1;
    }
    const QSignalBlocker block(this);
    setCurrentIndex(item);
}

} // namespace stepscope

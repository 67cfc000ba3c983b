#pragma once
// CapturePicker: the timeline bar's "Capture" box, shown when the session's runs were recorded as
// separate captures minutes apart (captureClusters). It lists "All" and each capture (when it
// starts after the first, how long it lasts); picking one zooms every view to it. A session
// opened with several captures shows the first, not the whole span with the data squeezed at its
// edges; the box follows the zoom (the capture the view lies in, else All).

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QComboBox>

#include <vector>

namespace stepscope {

class CapturePicker : public QComboBox {
    Q_OBJECT
public:
    CapturePicker(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);
    const std::vector<NsRange> &captures() const { return m_captures; }
    // Zooms to capture `index` (0-based); -1: the whole session.
    void showCapture(int index);

signals:
    // A capture was picked (its runs, in session order), or All (empty): the timeline folds the
    // other captures' runs, the analysis views show its first run.
    void captureShown(const std::vector<int64_t> &runIds);

private:
    void reload();
    void follow(NsRange range);

    SessionModel *m_session;
    TimeRangeController *m_time;
    std::vector<NsRange> m_captures;
    std::vector<std::vector<int64_t>> m_runs;  // each capture's runs
};

} // namespace stepscope

#pragma once
// SessionOverviewView lists what the session holds: each source (format, status, events, warnings),
// its runs and their tracks, and the metric series. Double-clicking a run zooms every view to it.

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QTreeWidget>

namespace stepscope {

class SessionOverviewView : public QTreeWidget {
    Q_OBJECT
public:
    SessionOverviewView(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);
    void reload();

protected:
    // The names get the room: Kind and Status are as wide as their text up to a share of the width
    // (cut text keeps its whole in the tooltip).
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitColumns();
    SessionModel *m_session;
    TimeRangeController *m_time;
};

} // namespace stepscope

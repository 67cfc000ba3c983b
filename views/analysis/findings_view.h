#pragma once
// FindingsView: the findings & gaps panel of a run — the bottleneck line, every finding (severity,
// title, detail, recommendation, evidence steps) and the longest GPU idle gaps (cause, what the host
// was doing, overlapping host events). Clicking an entry zooms every view to its evidence through the
// TimeRangeController. Created by MainWindow.

#include "models/qt/session_models.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace stepscope {

class AnalysisModel;

class FindingsView : public QWidget {
    Q_OBJECT
protected:
    // The Severity and Evidence columns give way on a narrow panel, so titles never wrap letter
    // by letter (1024×700: "Checkpoi/nt stall/training").
    void resizeEvent(QResizeEvent *event) override;

public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit FindingsView(const SessionModels &models, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    QString bottleneckText() const;  // the line over the findings (bottleneck, biggest gain)
    // Zooms to the evidence of a tree item (what a click does).
    void activate(QTreeWidgetItem *item);
    // Shows run `runId` (a rank picked in the Job view); nothing when the session has no such run.
    void showRun(qint64 runId);
    // While another import runs, the open session's verdict is not shown as if it were the new one's:
    // the panel says what is being imported. An empty name shows the open session's findings again.
    void setImporting(const QString &what);
    // The verdict (bottleneck, biggest gain, memory, cross-checks) above the findings takes at most
    // a quarter of the panel, scrolling beyond; collapsed (remembered) it is one line, so a short
    // panel lists the findings.
    void setVerdictExpanded(bool expanded);
    bool verdictExpanded() const;
    QWidget *verdictArea() const;

private:
    void reloadRuns();
    void reload();
    void fitVerdict();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QComboBox *m_runBox;
    QLabel *m_bottleneck;
    QScrollArea *m_verdict;
    QLabel *m_verdictLine;  // collapsed: the verdict's first line, elided, the whole in its tooltip
    QToolButton *m_verdictToggle;
    QTreeWidget *m_tree;
    QString m_importing;
};

} // namespace stepscope

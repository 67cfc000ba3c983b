#pragma once
// OpStatsView: the op statistics table of a run — sortable columns (count, total, self, mean, min, max,
// % of the side's time), a filter box on the name, a host/device/all toggle, over the run's analysed
// steps (per-range statistics: OpStatsAnalyzer with a window; not wired here yet). Selecting an op emits
// opSelected(name) so the window can highlight its occurrences in the timeline. Created by MainWindow.

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;
class QSortFilterProxyModel;

namespace stepscope {

class AnalysisModel;
class OpStatsTableModel;

class OpStatsView : public QWidget {
    Q_OBJECT
public:
    OpStatsView(SessionModel *session, TimeRangeController *time, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    OpStatsTableModel *model() const { return m_model; }
    void setFilterText(const QString &text);
    void setSide(int index);  // 0 device, 1 host, 2 all

signals:
    void opSelected(const QString &name, int device);  // device -1: host

private:
    void reloadRuns();
    void reload();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QComboBox *m_runBox, *m_sideBox;
    QLineEdit *m_filter;
    QTableView *m_table;
    OpStatsTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
};

} // namespace stepscope

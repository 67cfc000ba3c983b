#pragma once
// OpStatsView: the op statistics table of a run — sortable columns (count, total, self, mean, min, max,
// % of the side's time), a filter box on the name, a host/device/all toggle — over the run's analysed
// steps, or, with "Visible range only" (remembered), over the events starting in the range every view
// shows, recomputed in the background as the user zooms and pans. "Roofline" (remembered) shows the
// ops against the device's peak under the table (RooflinePlot). Selecting an op, in the table or on
// the chart, emits opSelected(name) so the window can highlight its occurrences in the timeline.
// Created by MainWindow.

#include "models/qt/session_models.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QTimer;
class QLineEdit;
class QTableView;

namespace stepscope {

class StatsTableProxy;

class AnalysisModel;
class NameColumn;
class OpStatsTableModel;
class RangeOpStats;
class RooflinePlot;

class OpStatsView : public QWidget {
    Q_OBJECT
public:
    // `models`: the session's shared models (SessionModels::of), from the view's owner.
    explicit OpStatsView(const SessionModels &models, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    OpStatsTableModel *model() const { return m_model; }
    void setFilterText(const QString &text);
    void setSide(int index);  // 0 device, 1 host, 2 all
    // Follow the visible range instead of the whole run (saved in the settings).
    void setVisibleRangeOnly(bool on);
    bool visibleRangeOnly() const;
    RangeOpStats *rangeStats() const { return m_rangeStats; }
    NameColumn *nameColumn() const { return m_nameColumn; }
    RooflinePlot *roofline() const { return m_roofline; }
    void setRooflineShown(bool on);
    bool rooflineShown() const;

signals:
    void opSelected(const QString &name, int device);  // device -1: host

private:
    void reloadRuns();
    void reload();
    void showRangeStats();
    void updateScope();
    void showUsedColumns();

    SessionModel *m_session;
    TimeRangeController *m_time;
    AnalysisModel *m_analysis;
    QComboBox *m_runBox, *m_sideBox;
    QLineEdit *m_filter;
    QTableView *m_table;
    OpStatsTableModel *m_model;
    StatsTableProxy *m_proxy;
    QCheckBox *m_rangeOnly;
    QLabel *m_scope;
    RangeOpStats *m_rangeStats;
    QTimer *m_rangeTimer;
    NameColumn *m_nameColumn = nullptr;
    QCheckBox *m_showRoofline;
    QWidget *m_rooflinePane;
    QLabel *m_rooflineNote;
    RooflinePlot *m_roofline;
};

} // namespace stepscope

#pragma once
// SliceDetailsView is the panel next to the timeline: the "Slice" tab shows the clicked slice (name,
// category, track, times, self time, args, parent chain, linked kernels / launch — double-click a
// linked slice to jump to it); the "Range" tab shows RangeAggregateModel for the selected range of
// the shared TimeRangeController (by name: count, total, self). MainWindow puts it in a dock.

#include "models/qt/time_range_controller.h"
#include "models/timeline/range_aggregate_model.h"
#include "models/timeline/timeline_types.h"

#include <QTabWidget>
#include <QTimer>

class QLabel;
class QMenu;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace stepscope {

class TimelineView;

class SliceDetailsView : public QTabWidget {
    Q_OBJECT
public:
    SliceDetailsView(TimelineView *timeline, TimeRangeController *time, QWidget *parent = nullptr);
    QTableView *rangeTable() const { return m_table; }  // the Range tab's table

    void showSlice(const SliceDetails &details);
    RangeAggregateModel *aggregateModel() const { return m_aggregate; }
    QTreeWidget *sliceTree() const { return m_tree; }
    // The Slice tab's right-click actions for `item` (may be null): copy its value, its row, everything.
    void addCopyActions(QMenu &menu, QTreeWidgetItem *item);

private:
    void onSelection(NsRange selection);
    void addArgs(QTreeWidgetItem *parent, const QString &json);

    TimelineView *m_timeline;
    TimeRangeController *m_time;
    RangeAggregateModel *m_aggregate;
    QTreeWidget *m_tree;
    QTableView *m_table;
    QLabel *m_rangeLabel;
    QTimer m_aggregateTimer;
};

} // namespace stepscope

#pragma once
// RangeAggregateModel is the table shown for a dragged time range: one row per slice name with the
// number of slices starting in the range, their total and their self time (total minus direct
// children), sorted by total. It reads the session through the (track_id, start_ns) index, track by
// track. The timeline's details panel shows it for TimeRangeController's selection, computed in the
// background (requestRange): a whole-session range over 10 M events takes seconds, and a newer
// selection cancels the older one.

#include "models/concurrency/cancel_token.h"
#include "models/qt/time_range_controller.h"
#include "models/qt/background_reader.h"
#include "models/timeline/timeline_model.h"

#include <QAbstractTableModel>

#include <atomic>
#include <optional>
#include <vector>

namespace stepscope {

class RangeAggregateModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, TotalColumn, SelfColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;  // numeric value of a cell
    static constexpr int NameIdRole = Qt::UserRole + 2;

    struct Row {
        int64_t nameId = 0;
        QString name;
        int64_t count = 0, totalNs = 0, selfNs = 0;
    };

    explicit RangeAggregateModel(TimelineModel *timeline, QObject *parent = nullptr);

    // Recomputes for slices starting in `range` (invalid clears), now.
    void setRange(NsRange range);
    // The same on a worker thread with its own read-only connection when the session is a file
    // (synchronous otherwise); the rows change when it is done. A newer request cancels this one.
    void requestRange(NsRange range);
    bool busy() const { return m_reader.busy(); }
    NsRange range() const { return m_range; }
    const std::vector<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void busyChanged(bool busy);

private:
    struct TrackSpan {
        int64_t id, baseNs;
    };
    // The rows for `range`, or nullopt when `cancel` was raised (any thread).
    static std::optional<std::vector<Row>> compute(const SessionConnection &connection, const std::vector<TrackSpan> &tracks, NsRange range,
                                                   const CancelToken &cancel);
    std::vector<TrackSpan> sliceTracks() const;
    void install(NsRange range, std::vector<Row> rows);

    TimelineModel *m_timeline;
    BackgroundReader m_reader;
    NsRange m_range;
    std::vector<Row> m_rows;
};

} // namespace stepscope

#include "models/timeline/range_aggregate_model.h"

#include "models/colors/palette.h"

#include "models/trace/slice_self_time.h"
#include "models/store/slice_lookup.h"
#include "models/store/slice_reader.h"
#include "models/store/sqlite_statement.h"
#include "models/text/time_format.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace stepscope {

RangeAggregateModel::RangeAggregateModel(TimelineModel *timeline, QObject *parent)
    : QAbstractTableModel(parent), m_timeline(timeline) {
    connect(timeline, &TimelineModel::modelReset, this, [this] { requestRange(m_range); });
    connect(timeline, &TimelineModel::runOffsetsChanged, this, [this] { requestRange(m_range); });  // tracks moved in time
    connect(&m_reader, &BackgroundReader::busyChanged, this, &RangeAggregateModel::busyChanged);
}

std::vector<RangeAggregateModel::TrackSpan> RangeAggregateModel::sliceTracks() const {
    std::vector<TrackSpan> out;
    for (const TimelineTrack &t : m_timeline->tracks())
        if (!t.isValueTrack()) out.push_back({t.id, t.baseNs});
    return out;
}

std::optional<std::vector<RangeAggregateModel::Row>> RangeAggregateModel::compute(const SessionConnection &connection,
                                                                                  const std::vector<TrackSpan> &tracks, NsRange range,
                                                                                  const CancelToken &cancel) {
    auto cancelled = [cancel] { return cancel.cancelled(); };
    std::unordered_map<int64_t, Row> byName;
    try {
        // The slices starting in the range, then the children of each (they start inside it, so
        // between the range start and the last of those slices' ends): self time by the one rule.
        SliceReader slices(connection);
        struct Parent {
            int64_t id, nameId, start, end;
        };
        std::vector<Parent> parents;  // by id, for the children's lookups
        for (const TrackSpan &t : tracks) {
            if (cancelled()) return std::nullopt;
            parents.clear();
            int64_t lastEnd = range.start - t.baseNs;
            slices.forEachStartingIn(t.id, range.start - t.baseNs, range.end - t.baseNs, [&](const StoredSlice &s) {
                const int64_t dur = std::max<int64_t>(0, s.durNs);
                parents.push_back({s.id, s.nameId, s.startNs, s.startNs + dur});
                lastEnd = std::max(lastEnd, s.startNs + dur);
            });
            if (parents.empty()) continue;
            const auto byId = [](const Parent &a, const Parent &b) { return a.id < b.id; };
            if (!std::is_sorted(parents.begin(), parents.end(), byId)) std::sort(parents.begin(), parents.end(), byId);
            bool stopped = false;
            const std::vector<int64_t> self = sliceSelfTimes(
                parents.size(), [&](size_t i) { return std::pair(parents[i].start, parents[i].end); }, [&](auto add) {
                    size_t n = 0;
                    slices.forEachChildStartingIn(t.id, range.start - t.baseNs, lastEnd, [&](const StoredChild &c) {
                        if ((n++ & 0xFFFF) == 0xFFFF && cancelled()) return !(stopped = true);
                        const auto p = std::lower_bound(parents.begin(), parents.end(), c.parentId,
                                                        [](const Parent &a, int64_t id) { return a.id < id; });
                        if (p == parents.end() || p->id != c.parentId) return true;  // a parent outside the range
                        add(size_t(p - parents.begin()), c.startNs, c.startNs + std::max<int64_t>(0, c.durNs));
                        return true;
                    });
                });
            if (stopped) return std::nullopt;
            for (size_t i = 0; i < parents.size(); ++i) {
                Row &r = byName[parents[i].nameId];
                ++r.count;
                r.totalNs += parents[i].end - parents[i].start;
                r.selfNs += self[i];
            }
        }
        std::vector<Row> rows;
        SliceLookup names(connection);
        for (auto &[id, r] : byName) {
            r.nameId = id;
            r.name = QString::fromStdString(names.text(id));
            rows.push_back(std::move(r));
        }
        std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
            return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name; });
        return rows;
    } catch (const StoreError &) {
        if (cancelled()) return std::nullopt;  // interrupted
        throw;
    }
}

void RangeAggregateModel::install(NsRange range, std::vector<Row> rows) {
    beginResetModel();
    m_range = range;
    m_rows = std::move(rows);
    endResetModel();
}

void RangeAggregateModel::setRange(NsRange range) {
    m_reader.cancel();
    SessionStore *store = m_timeline->store();
    std::vector<Row> rows;
    if (store && range.valid()) rows = compute(store->connection(), sliceTracks(), range, {}).value_or(std::vector<Row>{});
    install(range, std::move(rows));
}

void RangeAggregateModel::requestRange(NsRange range) {
    SessionStore *store = m_timeline->store();
    const bool started = store && range.valid() &&
        m_reader.start(store->path(), [this, range, tracks = sliceTracks()](const SessionConnection &connection, const CancelToken &cancel) {
            std::optional<std::vector<Row>> rows = compute(connection, tracks, range, cancel);
            if (!rows) return std::function<void()>();
            return std::function<void()>([this, range, rows = std::move(*rows)]() mutable { install(range, std::move(rows)); });
        });
    if (!started) setRange(range);
}

int RangeAggregateModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int RangeAggregateModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeAggregateModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const Row &r = m_rows[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::DisplayRole) {
        switch (c) {
        case NameColumn: return r.name;
        case CountColumn: return QString::number(r.count);
        case TotalColumn: return formatTime(r.totalNs);
        case SelfColumn: return formatTime(r.selfNs);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && c == NameColumn) return r.name.toHtmlEscaped();  // a narrow column elides it
    if (role == SortRole) {
        switch (c) {
        case NameColumn: return r.name;
        case CountColumn: return qlonglong(r.count);
        case TotalColumn: return qlonglong(r.totalNs);
        case SelfColumn: return qlonglong(r.selfNs);
        default: return {};
        }
    }
    if (role == NameIdRole) return qlonglong(r.nameId);
    if (role == Qt::DecorationRole && c == NameColumn) return nameColorForText(r.name);
    if (role == Qt::TextAlignmentRole && c != NameColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RangeAggregateModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case CountColumn: return tr("Count");
    case TotalColumn: return tr("Total");
    case SelfColumn: return tr("Self");
    default: return {};
    }
}

} // namespace stepscope

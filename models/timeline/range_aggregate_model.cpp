#include "models/timeline/range_aggregate_model.h"

#include "models/timeline/name_colors.h"

#include "models/store/sqlite_statement.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace stepscope {

QString formatDurationNs(int64_t ns) {
    const double v = double(ns), a = std::abs(v);
    if (a >= 1e9) return QString::number(v / 1e9, 'f', a >= 1e11 ? 1 : 3) + QStringLiteral(" s");
    if (a >= 1e6) return QString::number(v / 1e6, 'f', a >= 1e8 ? 1 : 3) + QStringLiteral(" ms");
    if (a >= 1e3) return QString::number(v / 1e3, 'f', a >= 1e5 ? 1 : 3) + QStringLiteral(" µs");
    return QString::number(ns) + QStringLiteral(" ns");
}

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

std::optional<std::vector<RangeAggregateModel::Row>> RangeAggregateModel::compute(sqlite3 *db, const std::vector<TrackSpan> &tracks,
                                                                                  NsRange range, const std::atomic<bool> *cancel) {
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    std::unordered_map<int64_t, Row> byName;
    try {
        SqliteStatement totals(db, "SELECT name_id, count(*), sum(dur_ns) FROM slice WHERE track_id = ?1 "
                                   "AND start_ns >= ?2 AND start_ns < ?3 GROUP BY name_id");
        // Children time charged to the parent's name, for self time.
        SqliteStatement children(db, "SELECT p.name_id, sum(c.dur_ns) FROM slice c JOIN slice p ON p.id = c.parent_id "
                                     "WHERE c.track_id = ?1 AND c.start_ns >= ?2 AND c.start_ns < ?3 GROUP BY p.name_id");
        for (const TrackSpan &t : tracks) {
            if (cancelled()) return std::nullopt;
            totals.bind(1, t.id);
            totals.bind(2, range.start - t.baseNs);
            totals.bind(3, range.end - t.baseNs);
            while (totals.step()) {
                Row &r = byName[totals.columnInt(0)];
                r.count += totals.columnInt(1);
                r.totalNs += totals.columnInt(2);
                r.selfNs += totals.columnInt(2);
            }
            totals.reset();
            children.bind(1, t.id);
            children.bind(2, range.start - t.baseNs);
            children.bind(3, range.end - t.baseNs);
            while (children.step()) {
                auto it = byName.find(children.columnInt(0));
                if (it != byName.end()) it->second.selfNs -= children.columnInt(1);
            }
            children.reset();
        }
        std::vector<Row> rows;
        SqliteStatement name(db, "SELECT text FROM string WHERE id = ?1");
        for (auto &[id, r] : byName) {
            r.nameId = id;
            r.selfNs = std::max<int64_t>(0, r.selfNs);
            name.bind(1, id);
            if (name.step()) r.name = QString::fromStdString(name.columnText(0));
            name.reset();
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
    if (store && range.valid()) rows = compute(store->db(), sliceTracks(), range, nullptr).value_or(std::vector<Row>{});
    install(range, std::move(rows));
}

void RangeAggregateModel::requestRange(NsRange range) {
    SessionStore *store = m_timeline->store();
    const bool started = store && range.valid() &&
        m_reader.start(store->path(), [this, range, tracks = sliceTracks()](sqlite3 *db, const std::atomic<bool> &cancel) {
            std::optional<std::vector<Row>> rows = compute(db, tracks, range, &cancel);
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
        case TotalColumn: return formatDurationNs(r.totalNs);
        case SelfColumn: return formatDurationNs(r.selfNs);
        default: return {};
        }
    }
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

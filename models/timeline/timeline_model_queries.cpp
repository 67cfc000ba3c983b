// TimelineModel: the questions asked about single slices (details, ids behind summary items, flows).
#include "models/timeline/timeline_model.h"

#include "models/store/slice_self_time.h"
#include "models/store/sqlite_statement.h"
#include "models/timeline/name_colors.h"

#include <algorithm>

namespace stepscope {

namespace {
QString text(const SqliteStatement &st, int col) { return QString::fromStdString(st.columnText(col)); }
} // namespace

QString TimelineModel::nameText(int64_t nameId) const {
    auto it = m_names.constFind(nameId);
    if (it != m_names.constEnd()) return *it;
    QString name;
    if (m_store) {
        SqliteStatement st(m_store->db(), "SELECT text FROM string WHERE id = ?1");
        st.bind(1, nameId);
        if (st.step()) name = text(st, 0);
    }
    m_names.insert(nameId, name);
    return name;
}

QColor TimelineModel::nameColorOf(int64_t nameId) const {
    auto it = m_colors.constFind(nameId);
    if (it != m_colors.constEnd()) return *it;
    const QColor c = nameColorForText(nameText(nameId));
    m_colors.insert(nameId, c);
    return c;
}

int64_t TimelineModel::resolveSliceId(int track, const TimelineItem &item) const {
    if (item.block || track < 0 || track >= int(m_tracks.size()) || !m_store) return -1;
    if (item.sliceId >= 0) return item.sliceId;
    const TimelineTrack &t = m_tracks[size_t(track)];
    SqliteStatement st(m_store->db(), "SELECT id FROM slice WHERE track_id = ?1 AND start_ns = ?2 AND depth = ?3 "
                                      "ORDER BY dur_ns DESC LIMIT 1");
    st.bind(1, t.id);
    st.bind(2, item.startNs - t.baseNs);
    st.bind(3, int64_t(item.depth));
    return st.step() ? st.columnInt(0) : -1;
}

SliceDetails TimelineModel::details(int64_t sliceId) const {
    SliceDetails d;
    if (!m_store || sliceId < 0) return d;
    sqlite3 *db = m_store->db();
    SqliteStatement st(db, "SELECT s.track_id, s.start_ns, s.dur_ns, s.depth, s.parent_id, n.text, c.text, s.correlation, "
                           "s.args FROM slice s JOIN string n ON n.id = s.name_id LEFT JOIN string c ON c.id = s.category_id "
                           "WHERE s.id = ?1");
    st.bind(1, sliceId);
    if (!st.step()) return d;
    const int64_t trackId = st.columnInt(0);
    d.id = sliceId;
    d.track = trackIndex(trackId);
    const int64_t base = d.track >= 0 ? m_tracks[size_t(d.track)].baseNs : 0;
    const int64_t relStart = st.columnInt(1);
    d.startNs = base + relStart;
    d.durNs = st.columnInt(2);
    d.depth = uint32_t(st.columnInt(3));
    int64_t parent = st.columnIsNull(4) ? -1 : st.columnInt(4);
    d.name = text(st, 5);
    d.category = text(st, 6);
    if (!st.columnIsNull(7)) d.correlation = st.columnInt(7);
    d.argsJson = text(st, 8);
    if (d.track >= 0) d.trackName = m_tracks[size_t(d.track)].name;

    // Self time by the one rule (slice_self_time): minus what the direct children cover inside it.
    SqliteStatement children(db, "SELECT start_ns, dur_ns FROM slice WHERE track_id = ?1 AND start_ns >= ?2 "
                                 "AND start_ns <= ?3 AND parent_id = ?4");
    children.bind(1, trackId);
    children.bind(2, relStart);
    children.bind(3, relStart + d.durNs);
    children.bind(4, sliceId);
    int64_t childNs = 0;
    while (children.step())
        childNs += slice_self_time::childCover(relStart, relStart + d.durNs, children.columnInt(0),
                                               children.columnInt(0) + std::max<int64_t>(0, children.columnInt(1)));
    d.selfNs = slice_self_time::selfNs(d.durNs, childNs);

    SqliteStatement up(db, "SELECT s.parent_id, n.text, s.start_ns, s.dur_ns FROM slice s JOIN string n ON n.id = s.name_id "
                           "WHERE s.id = ?1");
    for (int guard = 0; parent >= 0 && guard < 256; ++guard) {
        up.bind(1, parent);
        if (!up.step()) break;
        d.parents.push_back({parent, text(up, 1), base + up.columnInt(2), up.columnInt(3), QStringLiteral("parent")});
        parent = up.columnIsNull(0) ? -1 : up.columnInt(0);
        up.reset();
    }

    // Launch <-> kernel: flows first; correlation ids as a fallback, near the slice in its run.
    auto addLink = [&](SqliteStatement &q, const QString &relation) {
        while (q.step()) {
            const int ti = trackIndex(q.columnInt(4));
            const int64_t b = ti >= 0 ? m_tracks[size_t(ti)].baseNs : 0;
            d.linked.push_back({q.columnInt(0), text(q, 1), b + q.columnInt(2), q.columnInt(3), relation});
        }
    };
    const char *linkSql = "SELECT s.id, n.text, s.start_ns, s.dur_ns, s.track_id FROM flow f JOIN slice s ON s.id = f.%1 "
                          "JOIN string n ON n.id = s.name_id WHERE f.%2 = ?1";
    SqliteStatement to(db, QString::fromLatin1(linkSql).arg(QStringLiteral("to_slice_id"), QStringLiteral("from_slice_id")).toStdString());
    to.bind(1, sliceId);
    addLink(to, QStringLiteral("flow to"));
    SqliteStatement from(db, QString::fromLatin1(linkSql).arg(QStringLiteral("from_slice_id"), QStringLiteral("to_slice_id")).toStdString());
    from.bind(1, sliceId);
    addLink(from, QStringLiteral("flow from"));
    if (d.linked.empty() && d.correlation && d.track >= 0) {
        const int64_t runId = m_tracks[size_t(d.track)].runId;
        SqliteStatement corr(db, "SELECT s.id, n.text, s.start_ns, s.dur_ns, s.track_id FROM track t JOIN slice s ON "
                                 "s.track_id = t.id AND s.start_ns BETWEEN ?2 AND ?3 JOIN string n ON n.id = s.name_id "
                                 "WHERE t.run_id = ?1 AND s.correlation = ?4 AND s.id <> ?5 LIMIT 16");
        corr.bind(1, runId);
        corr.bind(2, relStart - 100'000'000);
        corr.bind(3, relStart + 100'000'000);
        corr.bind(4, *d.correlation);
        corr.bind(5, sliceId);
        addLink(corr, QStringLiteral("correlated"));
    }
    return d;
}

std::optional<TimelineFlow> TimelineModel::placeFlow(const RawFlow &f) const {
    const int from = trackIndex(f.fromTrack), to = trackIndex(f.toTrack);
    if (from < 0 || to < 0) return std::nullopt;
    // Depths on the tracks' lanes, as the folder places their slices.
    const auto lane = [this](int track, uint32_t depth) {
        return std::min<uint32_t>(depth, uint32_t(std::max(1, m_tracks[size_t(track)].depthCount) - 1));
    };
    return TimelineFlow{f.fromId, f.toId, from, to, m_tracks[size_t(from)].baseNs + f.fromEnd,
                        m_tracks[size_t(to)].baseNs + f.toStart, lane(from, f.fromDepth), lane(to, f.toDepth)};
}

std::vector<TimelineFlow> TimelineModel::flows(NsRange range, const std::vector<int> &visibleTracks) {
    std::vector<TimelineFlow> out;
    for (int ti : visibleTracks) {
        if (ti < 0 || ti >= int(m_tracks.size())) continue;
        const TimelineTrack &t = m_tracks[size_t(ti)];
        if (!m_slices.cached(t.id, range.start - t.baseNs, range.end - t.baseNs)) continue;  // not drawn exactly
        for (const RawFlow &f : m_slices.flows(t.id)) {
            const std::optional<TimelineFlow> tf = placeFlow(f);
            if (!tf) continue;
            const bool inside = (tf->fromNs >= range.start && tf->fromNs <= range.end) ||
                                (tf->toNs >= range.start && tf->toNs <= range.end);
            if (inside) out.push_back(*tf);
        }
    }
    std::sort(out.begin(), out.end(), [](const TimelineFlow &a, const TimelineFlow &b) {
        return a.fromSliceId != b.fromSliceId ? a.fromSliceId < b.fromSliceId : a.toSliceId < b.toSliceId; });
    out.erase(std::unique(out.begin(), out.end(), [](const TimelineFlow &a, const TimelineFlow &b) {
        return a.fromSliceId == b.fromSliceId && a.toSliceId == b.toSliceId; }), out.end());
    return out;
}

std::vector<TimelineFlow> TimelineModel::flowsOf(int64_t sliceId) const {
    std::vector<TimelineFlow> out;
    if (!m_store || sliceId < 0) return out;
    // Both directions, each through its index (flow_from_slice, flow_to_slice).
    for (const char *side : {"f.from_slice_id", "f.to_slice_id"}) {
        SqliteStatement st(m_store->db(), std::string(
            "SELECT f.from_slice_id, f.to_slice_id, a.track_id, a.start_ns + a.dur_ns, a.depth, b.track_id, b.start_ns, b.depth "
            "FROM flow f JOIN slice a ON a.id = f.from_slice_id JOIN slice b ON b.id = f.to_slice_id WHERE ") + side + " = ?1 LIMIT 64");
        st.bind(1, sliceId);
        while (st.step()) {
            const RawFlow raw{st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(5),
                              std::clamp(st.columnInt(3), -kLodTimeLimit, kLodTimeLimit),
                              std::clamp(st.columnInt(6), -kLodTimeLimit, kLodTimeLimit), clampDepth(st.columnInt(4)),
                              clampDepth(st.columnInt(7))};
            if (const auto tf = placeFlow(raw)) out.push_back(*tf);
        }
    }
    return out;
}

} // namespace stepscope

// TimelineModel: the questions asked about single slices (details, ids behind summary items, flows).
#include "models/timeline/timeline_model.h"

#include "models/trace/slice_self_time.h"
#include "models/store/sqlite_statement.h"
#include "models/colors/palette.h"

#include <algorithm>

namespace stepscope {

namespace {
QString qText(const std::string &s) { return QString::fromStdString(s); }
} // namespace

QString TimelineModel::nameText(int64_t nameId) const {
    auto it = m_names.constFind(nameId);
    if (it != m_names.constEnd()) return *it;
    const QString name = m_lookup ? qText(m_lookup->text(nameId)) : QString();
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
    if (item.block || track < 0 || track >= int(m_tracks.size()) || !m_lookup) return -1;
    if (item.sliceId >= 0) return item.sliceId;
    const TimelineTrack &t = m_tracks[size_t(track)];
    return m_lookup->sliceAt(t.id, item.startNs - t.baseNs, int64_t(item.depth)).value_or(-1);
}

SliceDetails TimelineModel::details(int64_t sliceId) const {
    SliceDetails d;
    if (!m_lookup || !m_slices.reader() || sliceId < 0) return d;
    const std::optional<StoredSliceDetails> row = m_lookup->details(sliceId);
    if (!row) return d;
    d.id = sliceId;
    d.track = trackIndex(row->trackId);
    const int64_t base = d.track >= 0 ? m_tracks[size_t(d.track)].baseNs : 0;
    const int64_t relStart = row->startNs;
    d.startNs = base + relStart;
    d.durNs = row->durNs;
    d.depth = uint32_t(row->depth);
    d.name = qText(row->name);
    d.category = qText(row->category);
    d.correlation = row->correlation;
    d.argsJson = qText(row->argsJson);
    if (d.track >= 0) d.trackName = m_tracks[size_t(d.track)].name;

    // Self time by the one loop (sliceSelfTimes): minus what the direct children cover inside it.
    const std::vector<StoredChild> children = m_slices.reader()->childrenOf(row->trackId, sliceId, relStart, relStart + d.durNs);
    d.selfNs = sliceSelfTimes(1, [&](size_t) { return std::pair(relStart, relStart + d.durNs); }, [&](auto add) {
        for (const StoredChild &c : children) add(0, c.startNs, c.startNs + std::max<int64_t>(0, c.durNs));
    })[0];

    std::optional<int64_t> parent = row->parentId;
    for (int guard = 0; parent && *parent >= 0 && guard < 256; ++guard) {
        const std::optional<StoredSliceRef> up = m_lookup->slice(*parent);
        if (!up) break;
        d.parents.push_back({up->id, qText(up->name), base + up->startNs, up->durNs, QStringLiteral("parent")});
        parent = up->parentId;
    }

    // Launch <-> kernel: flows first; correlation ids as a fallback, near the slice in its run.
    auto addLinks = [&](const std::vector<StoredSliceRef> &refs, const QString &relation) {
        for (const StoredSliceRef &r : refs) {
            const int ti = trackIndex(r.trackId);
            const int64_t b = ti >= 0 ? m_tracks[size_t(ti)].baseNs : 0;
            d.linked.push_back({r.id, qText(r.name), b + r.startNs, r.durNs, relation});
        }
    };
    addLinks(m_lookup->flowLinked(sliceId, true), QStringLiteral("flow to"));
    addLinks(m_lookup->flowLinked(sliceId, false), QStringLiteral("flow from"));
    if (d.linked.empty() && d.correlation && d.track >= 0) {
        const int64_t runId = m_tracks[size_t(d.track)].runId;
        addLinks(m_lookup->correlated(runId, *d.correlation, relStart - 100'000'000, relStart + 100'000'000, sliceId, 16),
                 QStringLiteral("correlated"));
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
    if (!m_slices.reader() || sliceId < 0) return out;
    for (const StoredFlow &f : m_slices.reader()->flowsOf(sliceId, 64))
        if (const auto tf = placeFlow(clampedFlow(f))) out.push_back(*tf);
    return out;
}

} // namespace stepscope

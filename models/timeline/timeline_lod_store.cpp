#include "models/timeline/timeline_lod_store.h"

#include "models/timeline/timeline_lod_writer.h"

#include <algorithm>
#include <cstring>

namespace stepscope {

std::span<const LodCell> TrackLod::cells(int level, int64_t b0, int64_t b1) const {
    const int i = level - finestLevel;
    if (i < 0 || i >= int(levels.size())) return {};
    const auto &v = levels[size_t(i)];
    auto lo = std::lower_bound(v.begin(), v.end(), b0, [](const LodCell &c, int64_t b) { return c.bucket < b; });
    auto hi = std::upper_bound(lo, v.end(), b1, [](int64_t b, const LodCell &c) { return b < c.bucket; });
    return {v.data() + (lo - v.begin()), size_t(hi - lo)};
}

int64_t TrackLod::estimateCount(int64_t t0, int64_t t1) const {
    if (!summarised()) return slices;
    // The finest level at which the range spans at most ~64 buckets keeps this cheap.
    int level = finestLevel;
    while (level < coarsestLevel() && ((t1 - t0) >> lodShift(level)) > 64) ++level;
    int64_t n = 0;
    for (const LodCell &c : cells(level, t0 >> lodShift(level), t1 >> lodShift(level))) n += c.count;
    return n;
}

void TimelineLodStore::load(SessionStore &store) {
    m_tracks.clear();
    m_built = false;
    sqlite3 *db = store.db();
    TimelineLodWriter writer(store);
    if (store.mode() == SessionStore::Mode::ReadWrite) {
        m_built = writer.ensure();
        readCache(db);
    } else if (writer.upToDate()) {
        readCache(db);
    } else {
        buildInMemory(db);
        m_built = true;
    }
    for (auto &[id, t] : m_tracks) indexWide(t);
}

void TimelineLodStore::readCache(sqlite3 *db) {
    SqliteStatement tracks(db, "SELECT track_id, slices, depth_count, start_ns, end_ns, finest_level FROM timeline_lod_track");
    while (tracks.step()) {
        TrackLod &t = m_tracks[tracks.columnInt(0)];
        t.slices = tracks.columnInt(1);
        t.depthCount = int(tracks.columnInt(2));
        t.startNs = tracks.columnInt(3);
        t.endNs = tracks.columnInt(4);
        t.finestLevel = int(tracks.columnInt(5));
    }
    SqliteStatement levels(db, "SELECT track_id, level, cells FROM timeline_lod ORDER BY track_id, level");
    while (levels.step()) {
        auto it = m_tracks.find(levels.columnInt(0));
        if (it == m_tracks.end()) continue;
        TrackLod &t = it->second;
        const int i = int(levels.columnInt(1)) - t.finestLevel;
        if (i < 0) continue;
        if (t.levels.size() <= size_t(i)) t.levels.resize(size_t(i) + 1);
        const void *blob = sqlite3_column_blob(levels.handle(), 2);
        const size_t bytes = size_t(sqlite3_column_bytes(levels.handle(), 2));
        auto &cells = t.levels[size_t(i)];
        cells.resize(bytes / sizeof(LodCell));
        if (!cells.empty()) std::memcpy(cells.data(), blob, cells.size() * sizeof(LodCell));
    }
}

void TimelineLodStore::buildInMemory(sqlite3 *db) {
    buildTrackLods(db, [this](TrackLodBuild &&b) {
        TrackLod &t = m_tracks[b.trackId];
        t.slices = b.slices;
        t.depthCount = b.depthCount;
        t.startNs = b.startNs;
        t.endNs = b.endNs;
        t.finestLevel = b.finestLevel;
        t.levels = std::move(b.levels);
    });
}

void TimelineLodStore::indexWide(TrackLod &t) {
    t.wide.assign(size_t(std::max(t.depthCount, 0)), {});
    if (!t.summarised()) return;
    const auto &finest = t.levels.front();
    const int shift = lodShift(t.finestLevel);
    for (size_t i = 0; i < finest.size(); ++i) {
        const LodCell &c = finest[i];
        if (c.longStart + c.longDur > ((c.bucket + 1) << shift) && c.depth < t.wide.size())
            t.wide[c.depth].push_back(uint32_t(i));
    }
}

const TrackLod *TimelineLodStore::track(int64_t trackId) const {
    auto it = m_tracks.find(trackId);
    return it == m_tracks.end() ? nullptr : &it->second;
}

size_t TimelineLodStore::memoryBytes() const {
    size_t n = 0;
    for (const auto &[id, t] : m_tracks) {
        n += sizeof(TrackLod);
        for (const auto &l : t.levels) n += l.capacity() * sizeof(LodCell);
        for (const auto &w : t.wide) n += w.capacity() * sizeof(uint32_t);
    }
    return n;
}

} // namespace stepscope

#include "models/timeline/timeline_lod_cache.h"

#include "models/timeline/timeline_lod_check.h"
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

void TimelineLodCache::load(SessionStore &store) {
    m_tracks.clear();
    m_built = false;
    m_rejected.clear();
    sqlite3 *db = store.db();
    TimelineLodWriter writer(store);
    if (store.mode() == SessionStore::Mode::ReadWrite) {
        m_built = writer.ensure();
        if (!readCache(db)) {
            writer.rebuild();
            m_built = true;
            if (!readCache(db)) buildInMemory(db);  // not expected: what the writer writes passes
        }
    } else if (!writer.upToDate() || !readCache(db)) {
        buildInMemory(db);
        m_built = true;
    }
    for (auto &[id, t] : m_tracks) indexWide(t);
}

bool TimelineLodCache::readCache(sqlite3 *db) {
    if (readCacheRows(db)) return true;
    m_tracks.clear();
    return false;
}

bool TimelineLodCache::readCacheRows(sqlite3 *db) {
    m_tracks.clear();
    auto reject = [this](int64_t track, const std::string &why) {
        if (m_rejected.empty()) m_rejected = "timeline_lod of track " + std::to_string(track) + ": " + why;
        return false;
    };
    SqliteStatement tracks(db, "SELECT track_id, slices, depth_count, start_ns, end_ns, finest_level FROM timeline_lod_track");
    while (tracks.step()) {
        const int64_t id = tracks.columnInt(0);
        const int64_t slices = tracks.columnInt(1), depthCount = tracks.columnInt(2), finest = tracks.columnInt(5);
        const int64_t start = tracks.columnInt(3), end = tracks.columnInt(4);
        if (const std::string why = checkTrackRow(slices, depthCount, start, end, finest); !why.empty())
            return reject(id, why);
        TrackLod &t = m_tracks[id];
        t.slices = slices;
        t.depthCount = int(depthCount);
        t.startNs = start;
        t.endNs = end;
        t.finestLevel = int(finest);
    }
    SqliteStatement levels(db, "SELECT track_id, level, cells FROM timeline_lod ORDER BY track_id, level");
    while (levels.step()) {
        const int64_t id = levels.columnInt(0), level = levels.columnInt(1);
        auto it = m_tracks.find(id);
        if (it == m_tracks.end()) return reject(id, "cells of a track without a timeline_lod_track row");
        TrackLod &t = it->second;
        // Levels come in order; each must be the next one of the track, so at most kLodMaxLevel + 1.
        if (t.finestLevel < 0 || level != t.finestLevel + int64_t(t.levels.size()) || level > kLodMaxLevel)
            return reject(id, "level " + std::to_string(level) + " where level " +
                                   std::to_string(t.finestLevel + int64_t(t.levels.size())) + " was due");
        const std::string_view blob = levels.columnBlob(2);
        const size_t bytes = blob.size();
        if (bytes == 0 || bytes % sizeof(LodCell) != 0)
            return reject(id, "level " + std::to_string(level) + " blob of " + std::to_string(bytes) +
                                  " bytes, not a whole number of 48-byte cells");
        std::vector<LodCell> cells(bytes / sizeof(LodCell));  // as large as the blob, never a stored count
        std::memcpy(cells.data(), blob.data(), bytes);
        if (const std::string why = checkLodLevel(t, int(level), cells); !why.empty()) return reject(id, why);
        t.levels.push_back(std::move(cells));
    }
    // Tracks read without summary: their count and depth against the slices themselves (at most
    // kLodMinSlices rows each, through the track's index).
    SqliteStatement real(db, "SELECT count(*), COALESCE(max(CAST(depth AS INTEGER)), 0) FROM "
                             "(SELECT depth FROM slice WHERE track_id = ?1 LIMIT ?2)");
    for (const auto &[id, t] : m_tracks) {
        int64_t count = 0, maxDepth = 0;
        if (!t.summarised()) {
            real.bind(1, id);
            real.bind(2, kLodMinSlices + 1);
            if (real.step()) {
                count = real.columnInt(0);
                maxDepth = real.columnInt(1);
            }
            real.reset();
        }
        if (const std::string why = checkTrackLod(t, count, maxDepth); !why.empty()) return reject(id, why);
    }
    return true;
}

void TimelineLodCache::buildInMemory(sqlite3 *db) {
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

void TimelineLodCache::indexWide(TrackLod &t) {
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

const TrackLod *TimelineLodCache::track(int64_t trackId) const {
    auto it = m_tracks.find(trackId);
    return it == m_tracks.end() ? nullptr : &it->second;
}

size_t TimelineLodCache::memoryBytes() const {
    size_t n = 0;
    for (const auto &[id, t] : m_tracks) {
        n += sizeof(TrackLod);
        for (const auto &l : t.levels) n += l.capacity() * sizeof(LodCell);
        for (const auto &w : t.wide) n += w.capacity() * sizeof(uint32_t);
    }
    return n;
}

} // namespace stepscope

#include "models/timeline/timeline_lod_cache.h"

#include "models/store/timeline_lod_store.h"
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
    TimelineLodWriter writer(store);
    if (store.mode() == SessionStore::Mode::ReadWrite) {
        m_built = writer.ensure();
        if (!readCache(store)) {
            writer.rebuild();
            m_built = true;
            if (!readCache(store)) buildInMemory(store);  // not expected: what the writer writes passes
        }
    } else if (!writer.upToDate() || !readCache(store)) {
        buildInMemory(store);
        m_built = true;
    }
    for (auto &[id, t] : m_tracks) indexWide(t);
}

bool TimelineLodCache::readCache(const SessionStore &store) {
    if (readCacheRows(TimelineLodStore(store))) return true;
    m_tracks.clear();
    return false;
}

bool TimelineLodCache::readCacheRows(const TimelineLodStore &stored) {
    m_tracks.clear();
    bool ok = true;
    auto reject = [this, &ok](int64_t track, const std::string &why) {
        if (m_rejected.empty()) m_rejected = "timeline_lod of track " + std::to_string(track) + ": " + why;
        ok = false;
        return false;
    };
    stored.forEachTrack([&](const StoredLodTrack &row) {
        if (const std::string why = checkTrackRow(row.slices, row.depthCount, row.startNs, row.endNs, row.finestLevel);
            !why.empty())
            return reject(row.trackId, why);
        TrackLod &t = m_tracks[row.trackId];
        t.slices = row.slices;
        t.depthCount = int(row.depthCount);
        t.startNs = row.startNs;
        t.endNs = row.endNs;
        t.finestLevel = int(row.finestLevel);
        return true;
    });
    if (!ok) return false;
    stored.forEachLevel([&](const StoredLodLevel &row) {
        const int64_t id = row.trackId, level = row.level;
        auto it = m_tracks.find(id);
        if (it == m_tracks.end()) return reject(id, "cells of a track without a timeline_lod_track row");
        TrackLod &t = it->second;
        // Levels come in order; each must be the next one of the track, so at most kLodMaxLevel + 1.
        if (t.finestLevel < 0 || level != t.finestLevel + int64_t(t.levels.size()) || level > kLodMaxLevel)
            return reject(id, "level " + std::to_string(level) + " where level " +
                                   std::to_string(t.finestLevel + int64_t(t.levels.size())) + " was due");
        const size_t bytes = row.cells.size();
        if (bytes == 0 || bytes % sizeof(LodCell) != 0)
            return reject(id, "level " + std::to_string(level) + " blob of " + std::to_string(bytes) +
                                  " bytes, not a whole number of 48-byte cells");
        std::vector<LodCell> cells(bytes / sizeof(LodCell));  // as large as the blob, never a stored count
        std::memcpy(cells.data(), row.cells.data(), bytes);
        if (const std::string why = checkLodLevel(t, int(level), cells); !why.empty()) return reject(id, why);
        t.levels.push_back(std::move(cells));
        return true;
    });
    if (!ok) return false;
    // Tracks read without summary: their count and depth against the slices themselves (at most
    // kLodMinSlices rows each, through the track's index).
    std::vector<int64_t> direct;
    for (const auto &[id, t] : m_tracks)
        if (!t.summarised()) direct.push_back(id);
    std::unordered_map<int64_t, StoredTrackSample> samples;
    for (const StoredTrackSample &s : stored.firstSlices(direct, kLodMinSlices + 1)) samples[s.trackId] = s;
    for (const auto &[id, t] : m_tracks) {
        const auto s = samples.find(id);
        const int64_t count = s == samples.end() ? 0 : s->second.slices, maxDepth = s == samples.end() ? 0 : s->second.maxDepth;
        if (const std::string why = checkTrackLod(t, count, maxDepth); !why.empty()) return reject(id, why);
    }
    return true;
}

void TimelineLodCache::buildInMemory(const SessionStore &store) {
    buildTrackLods(store, [this](TrackLodBuild &&b) {
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

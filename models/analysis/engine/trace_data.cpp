#include "models/analysis/engine/trace_data.h"

#include "models/analysis/engine/type_refinement.h"
#include "models/store/analysis_input_reader.h"
#include "models/trace/slice_self_time.h"

#include <algorithm>
#include <unordered_set>

namespace stepscope {

std::vector<int8_t> TraceData::classify(const Preset &preset) const {
    std::vector<int8_t> out(slices.size(), int8_t(Preset::kIgnore));
    std::unordered_map<uint64_t, int8_t> cache;
    cache.reserve(4096);
    for (size_t i = 0; i < slices.size(); ++i) {
        const TraceSlice &s = slices[i];
        const uint64_t key = (uint64_t(uint32_t(s.nameId)) << 32) | (uint64_t(uint32_t(s.catId + 1) & 0x3fffffffu) << 2) |
                             (s.gpu ? 2u : 0u) | (s.launches ? 1u : 0u);
        auto it = cache.find(key);
        if (it == cache.end()) {
            const int t = preset.classify(text(s.nameId), text(s.catId), s.gpu ? EventSide::Device : EventSide::Host,
                                          s.launches);
            it = cache.emplace(key, int8_t(t)).first;
        }
        out[i] = it->second;
    }
    TypeRefinement::apply(*this, preset, out);  // what one event's name cannot say
    return out;
}

void TraceLoader::loadStrings(TraceData &d) const {
    std::vector<int32_t> ids;
    ids.reserve(1024);
    {
        std::unordered_set<int32_t> seen;
        for (const TraceSlice &s : d.slices)
            for (const int32_t id : {s.nameId, s.catId})
                if (id >= 0 && seen.insert(id).second) ids.push_back(id);
    }
    const AnalysisInputReader reader(m_store);
    const int64_t tableSize = reader.highestStringId();  // the rowid: no scan
    d.strings.reserve(ids.size());
    // A run that uses a large share of the table (the usual one-run session) reads it in one pass;
    // one run of many looks up only its own strings, so a session of N runs costs N small reads.
    if (int64_t(ids.size()) * 8 >= tableSize) {
        const std::unordered_set<int32_t> wanted(ids.begin(), ids.end());
        reader.scanStrings([&](int32_t id, std::string text) {
            if (wanted.count(id)) d.strings.emplace(id, std::move(text));
        });
    } else {
        reader.stringsOf(ids, [&](int32_t id, std::string text) { d.strings.emplace(id, std::move(text)); });
    }
}

TraceData TraceLoader::load(const RunRow &run) const {
    TraceData d;
    const AnalysisInputReader reader(m_store);
    for (TraceTrackRow &row : reader.traceTracks(run.id)) {
        TraceTrack t;
        t.id = row.id;
        t.gpu = row.gpu;
        t.device = t.gpu ? int(row.device.value_or(0)) : -1;
        t.name = std::move(row.name);
        t.count = size_t(row.slices);
        d.tracks.push_back(std::move(t));
    }
    // One sequential scan of the slice table (much faster than per-track index lookups), then a
    // counting sort by track; when the run holds a small part of the session, per-track index scans.
    std::unordered_map<int64_t, int32_t> trackIndex;
    size_t runSlices = 0;
    for (size_t ti = 0; ti < d.tracks.size(); ++ti) {
        trackIndex.emplace(d.tracks[ti].id, int32_t(ti));
        runSlices += d.tracks[ti].count;
    }
    std::vector<size_t> next(d.tracks.size(), 0);
    for (size_t ti = 0, pos = 0; ti < d.tracks.size(); pos += d.tracks[ti].count, ++ti) {
        d.tracks[ti].first = pos;
        next[ti] = pos;
    }
    d.slices.resize(runSlices);
    // The stored nesting: each slice's own id (kept in selfNs until the parents are resolved) and its
    // parent's id (-1: none), by position.
    std::vector<int64_t> parentIds(runSlices, -1);
    size_t rowsRead = 0;
    auto readRow = [&](const TraceSliceRow &row, int32_t ti) {
        if ((++rowsRead & 0xfff) == 0) throwIfCancelled(m_cancel);
        if (next[size_t(ti)] >= d.tracks[size_t(ti)].first + d.tracks[size_t(ti)].count) return;
        parentIds[next[size_t(ti)]] = row.parentId.value_or(-1);
        TraceSlice &s = d.slices[next[size_t(ti)]++];
        s.selfNs = row.id;
        s.start = row.startNs + run.timeBaseNs;
        s.end = s.start + std::max<int64_t>(0, row.durNs);
        s.nameId = int32_t(row.nameId);
        s.catId = row.categoryId ? int32_t(*row.categoryId) : -1;
        s.correlation = row.correlation.value_or(-1);
        s.track = ti;
        s.gpu = d.tracks[size_t(ti)].gpu;
    };
    if (runSlices * 2 >= size_t(reader.highestSliceId())) {
        reader.scanSlices([&](const TraceSliceRow &row) {
            const auto it = trackIndex.find(row.trackId);
            if (it != trackIndex.end()) readRow(row, it->second);
        });
    } else {
        std::vector<int64_t> trackIds;
        for (const TraceTrack &t : d.tracks) trackIds.push_back(t.id);
        reader.slicesOfTracks(trackIds, [&](size_t) { throwIfCancelled(m_cancel); },
                              [&](size_t ti, const TraceSliceRow &row) { readRow(row, int32_t(ti)); });
    }
    // Rows that vanished between the count and the scan (a concurrent re-import) leave holes: compact.
    size_t write = 0;
    for (size_t ti = 0; ti < d.tracks.size(); ++ti) {
        TraceTrack &t = d.tracks[ti];
        const size_t n = next[ti] - t.first;
        if (write != t.first) {
            std::move(d.slices.begin() + ptrdiff_t(t.first), d.slices.begin() + ptrdiff_t(t.first + n),
                      d.slices.begin() + ptrdiff_t(write));
            std::move(parentIds.begin() + ptrdiff_t(t.first), parentIds.begin() + ptrdiff_t(t.first + n),
                      parentIds.begin() + ptrdiff_t(write));
        }
        t.first = write;
        t.count = n;
        write += n;
    }
    d.slices.resize(write);
    parentIds.resize(write);
    throwIfCancelled(m_cancel);
    loadStrings(d);
    for (TraceTrack &t : d.tracks) {
        throwIfCancelled(m_cancel);
        resolveNesting(d, t, parentIds);
    }
    return d;
}

void TraceLoader::resolveNesting(TraceData &d, const TraceTrack &t, std::vector<int64_t> &parentIds) {
    const auto begin = d.slices.begin() + ptrdiff_t(t.first);
    // Equal starts: the longer slice first; equal spans keep the stored order (the parent was written
    // before its child).
    const auto byStart = [](const TraceSlice &a, const TraceSlice &b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    };
    if (!std::is_sorted(begin, begin + ptrdiff_t(t.count), byStart)) {
        std::vector<uint32_t> order(t.count);
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return byStart(begin[a], begin[b]); });
        std::vector<TraceSlice> slices(t.count);
        std::vector<int64_t> parents(t.count);
        for (size_t i = 0; i < order.size(); ++i) {
            slices[i] = begin[order[i]];
            parents[i] = parentIds[t.first + order[i]];
        }
        std::move(slices.begin(), slices.end(), begin);
        std::copy(parents.begin(), parents.end(), parentIds.begin() + ptrdiff_t(t.first));
    }
    // Stored parent id → position: positions by slice id (the id waits in selfNs until here).
    std::vector<std::pair<int64_t, int32_t>> byId(t.count);
    for (size_t i = 0; i < t.count; ++i) byId[i] = {begin[ptrdiff_t(i)].selfNs, int32_t(t.first + i)};
    if (!std::is_sorted(byId.begin(), byId.end())) std::sort(byId.begin(), byId.end());
    for (size_t i = t.first; i < t.first + t.count; ++i) {
        if (const int64_t pid = parentIds[i]; pid >= 0) {
            const auto it = std::lower_bound(byId.begin(), byId.end(), std::make_pair(pid, INT32_MIN));
            // A parent comes before its child; anything else (a tampered session) is no nesting.
            if (it != byId.end() && it->first == pid && size_t(it->second) < i) d.slices[i].parent = it->second;
        }
    }
    const std::vector<int64_t> self = sliceSelfTimes(
        t.count, [&](size_t i) { return std::pair(begin[ptrdiff_t(i)].start, begin[ptrdiff_t(i)].end); }, [&](auto add) {
            for (size_t i = 0; i < t.count; ++i)
                if (const TraceSlice &s = begin[ptrdiff_t(i)]; s.parent >= 0) add(size_t(s.parent) - t.first, s.start, s.end);
        });
    for (size_t i = 0; i < t.count; ++i) begin[ptrdiff_t(i)].selfNs = self[i];
    for (size_t i = t.first; i < t.first + t.count; ++i) {
        TraceSlice &s = d.slices[i];
        if (t.gpu || s.correlation < 0) continue;
        d.launchStartByCorrelation.emplace(s.correlation, s.start);
        s.launches = true;
        // Ancestors of a launching slice launch too; stop at the first already marked.
        for (int32_t q = s.parent; q >= 0 && !d.slices[size_t(q)].launches; q = d.slices[size_t(q)].parent)
            d.slices[size_t(q)].launches = true;
    }
}

} // namespace stepscope

#include "models/timeline/timeline_lod_writer.h"

#include "models/store/slice_reader.h"
#include "models/store/timeline_lod_store.h"

#include <algorithm>
#include <optional>
#include <string_view>

namespace stepscope {

namespace {

// Streams one track's slices (sorted by start) into every level at once. Each depth keeps one open
// cell per level; a cell closes when a slice at that depth starts in a later bucket. Levels too fine
// to be worth keeping (fewer than kLodMinSlicesPerCell slices per cell on average) are dropped as
// soon as that shows, which bounds memory to about one cell per eight slices.
class TrackLodAccumulator {
public:
    explicit TrackLodAccumulator(int64_t trackId) { m_out.trackId = trackId; }

    void add(int64_t start, int64_t dur, uint32_t depth, int32_t name) {
        if (m_out.slices == 0) m_out.startNs = m_out.endNs = start;
        m_out.endNs = std::max(m_out.endNs, start + dur);
        ++m_out.slices;
        m_out.depthCount = std::max(m_out.depthCount, int(depth) + 1);
        for (int level = m_minLevel; level <= kLodMaxLevel; ++level) {
            auto &open = m_open[size_t(level)];
            if (open.size() <= depth) open.resize(depth + 1);
            LodCell &cell = open[depth];
            const int64_t bucket = start >> lodShift(level);
            if (cell.count > 0 && cell.bucket != bucket) {
                m_cells[size_t(level)].push_back(cell);
                cell = LodCell{};
            }
            if (cell.count == 0) {
                cell.bucket = bucket;
                cell.depth = depth;
            }
            ++cell.count;
            cell.busyNs += dur;
            if (cell.count == 1 || dur > cell.longDur) {
                cell.longStart = start;
                cell.longDur = dur;
                cell.longName = name;
            }
        }
        dropTooFineLevels();
    }

    TrackLodBuild finish() {
        if (m_out.slices < kLodMinSlices) {
            m_out.finestLevel = -1;
            return std::move(m_out);
        }
        for (int level = m_minLevel; level <= kLodMaxLevel; ++level) {
            auto &cells = m_cells[size_t(level)];
            for (const LodCell &c : m_open[size_t(level)])
                if (c.count > 0) cells.push_back(c);
            std::sort(cells.begin(), cells.end(), [](const LodCell &a, const LodCell &b) {
                return a.bucket != b.bucket ? a.bucket < b.bucket : a.depth < b.depth;
            });
        }
        dropTooFineLevels(true);
        m_out.finestLevel = m_minLevel;
        // Keep levels up to the first that holds the whole track in one bucket per depth.
        for (int level = m_minLevel; level <= kLodMaxLevel; ++level) {
            m_out.levels.push_back(std::move(m_cells[size_t(level)]));
            if (m_out.levels.back().size() <= size_t(m_out.depthCount)) break;
        }
        return std::move(m_out);
    }

private:
    void dropTooFineLevels(bool final = false) {
        while (m_minLevel < kLodMaxLevel) {
            const size_t cells = m_cells[size_t(m_minLevel)].size();
            const int64_t allowed = m_out.slices / kLodMinSlicesPerCell + (final ? 0 : 1024);
            if (int64_t(cells) <= allowed) return;
            m_cells[size_t(m_minLevel)] = {};
            m_open[size_t(m_minLevel)] = {};
            ++m_minLevel;
        }
    }

    TrackLodBuild m_out;
    int m_minLevel = 0;
    std::vector<LodCell> m_open[kLodMaxLevel + 1];
    std::vector<LodCell> m_cells[kLodMaxLevel + 1];
};

std::string_view cellBytes(const std::vector<LodCell> &cells) {
    return {reinterpret_cast<const char *>(cells.data()), cells.size() * sizeof(LodCell)};
}

} // namespace

void buildTrackLods(const SessionStore &store, const std::function<void(TrackLodBuild &&)> &sink) {
    std::optional<TrackLodAccumulator> acc;
    int64_t current = 0;
    SliceReader(store).forEachByTrack([&](const StoredSlice &s) {
        if (!acc || s.trackId != current) {
            if (acc) sink(acc->finish());
            acc.emplace(s.trackId);
            current = s.trackId;
        }
        // Clamped as TimelineSliceCache clamps what it reads, so summary and exact rows agree.
        const ClampedSpan span = clampSliceTimes(s.startNs, s.durNs);
        acc->add(span.start, span.dur, clampDepth(s.depth), int32_t(s.nameId));
    });
    if (acc) sink(acc->finish());
}

bool TimelineLodWriter::upToDate() const { return TimelineLodStore(m_store).upToDate(); }

bool TimelineLodWriter::ensure() {
    if (upToDate()) return false;
    rebuild();
    return true;
}

void TimelineLodWriter::rebuild() {
    TimelineLodStore(m_store).rewrite([this](const TimelineLodStore::AddTrack &add) {
        std::vector<std::string_view> levelCells;
        buildTrackLods(m_store, [&](TrackLodBuild &&t) {
            levelCells.clear();
            for (const std::vector<LodCell> &level : t.levels) levelCells.push_back(cellBytes(level));
            add({t.trackId, t.slices, t.depthCount, t.startNs, t.endNs, t.finestLevel}, levelCells);
        });
    });
}

} // namespace stepscope

#include "models/timeline/timeline_lod_writer.h"

#include <algorithm>

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

void bindBlob(SqliteStatement &st, int index, const std::vector<LodCell> &cells) {
    st.bindBlob(index, cells.data(), cells.size() * sizeof(LodCell));
}

} // namespace

void buildTrackLods(sqlite3 *db, const std::function<void(TrackLodBuild &&)> &sink) {
    SqliteStatement st(db, "SELECT track_id, start_ns, dur_ns, depth, name_id FROM slice ORDER BY track_id, start_ns");
    std::optional<TrackLodAccumulator> acc;
    int64_t current = 0;
    while (st.step()) {
        const int64_t track = st.columnInt(0);
        if (!acc || track != current) {
            if (acc) sink(acc->finish());
            acc.emplace(track);
            current = track;
        }
        // Clamped as TimelineSliceCache clamps what it reads, so summary and exact rows agree.
        const ClampedSpan span = clampSliceTimes(st.columnInt(1), st.columnInt(2));
        acc->add(span.start, span.dur, clampDepth(st.columnInt(3)), int32_t(st.columnInt(4)));
    }
    if (acc) sink(acc->finish());
}

std::string TimelineLodWriter::fingerprint() const {
    std::string fp = "v1";
    SqliteStatement src(m_store.db(), "SELECT id, imported_at_ns, events FROM source ORDER BY id");
    while (src.step())
        fp += ";" + std::to_string(src.columnInt(0)) + ":" + std::to_string(src.columnInt(1)) + ":" +
              std::to_string(src.columnInt(2));
    SqliteStatement maxId(m_store.db(), "SELECT COALESCE(max(id), 0) FROM slice");
    fp += ";" + std::to_string(maxId.step() ? maxId.columnInt(0) : 0);
    return fp;
}

bool TimelineLodWriter::upToDate() const {
    SqliteStatement st(m_store.db(), "SELECT value FROM timeline_lod_state WHERE key = 'fingerprint'");
    return st.step() && st.columnText(0) == fingerprint();
}

bool TimelineLodWriter::ensure() {
    if (upToDate()) return false;
    rebuild();
    return true;
}

void TimelineLodWriter::rebuild() {
    sqlite3 *db = m_store.db();
    sqliteExec(db, "BEGIN IMMEDIATE");
    try {
        sqliteExec(db, "DELETE FROM timeline_lod; DELETE FROM timeline_lod_track;");
        SqliteStatement insTrack(db, "INSERT INTO timeline_lod_track(track_id, slices, depth_count, start_ns, end_ns, "
                                     "finest_level) VALUES (?1,?2,?3,?4,?5,?6)");
        SqliteStatement insLevel(db, "INSERT INTO timeline_lod(track_id, level, cells) VALUES (?1,?2,?3)");
        buildTrackLods(db, [&](TrackLodBuild &&t) {
            insTrack.bind(1, t.trackId);
            insTrack.bind(2, t.slices);
            insTrack.bind(3, int64_t(t.depthCount));
            insTrack.bind(4, t.startNs);
            insTrack.bind(5, t.endNs);
            insTrack.bind(6, int64_t(t.finestLevel));
            insTrack.run();
            for (size_t i = 0; i < t.levels.size(); ++i) {
                insLevel.bind(1, t.trackId);
                insLevel.bind(2, int64_t(t.finestLevel + int(i)));
                bindBlob(insLevel, 3, t.levels[i]);
                insLevel.run();
            }
        });
        SqliteStatement fp(db, "INSERT OR REPLACE INTO timeline_lod_state(key, value) VALUES ('fingerprint', ?1)");
        fp.bind(1, std::string_view(fingerprint()));
        fp.run();
        sqliteExec(db, "COMMIT");
    } catch (...) {
        sqliteExec(db, "ROLLBACK");
        throw;
    }
}

} // namespace stepscope

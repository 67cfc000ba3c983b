#include "models/store/timeline_lod_store.h"

#include "models/store/sqlite_statement.h"

namespace stepscope {

std::string TimelineLodStore::contentFingerprint() const {
    std::string fp = "v1";
    SqliteStatement src(m_conn.db(), "SELECT id, imported_at_ns, events FROM source ORDER BY id");
    while (src.step())
        fp += ";" + std::to_string(src.columnInt(0)) + ":" + std::to_string(src.columnInt(1)) + ":" +
              std::to_string(src.columnInt(2));
    SqliteStatement maxId(m_conn.db(), "SELECT COALESCE(max(id), 0) FROM slice");
    fp += ";" + std::to_string(maxId.step() ? maxId.columnInt(0) : 0);
    return fp;
}

bool TimelineLodStore::upToDate() const {
    SqliteStatement st(m_conn.db(), "SELECT value FROM timeline_lod_state WHERE key = 'fingerprint'");
    return st.step() && st.columnText(0) == contentFingerprint();
}

void TimelineLodStore::rewrite(const std::function<void(const AddTrack &add)> &produce) {
    sqlite3 *db = m_conn.db();
    sqliteExec(db, "BEGIN IMMEDIATE");
    try {
        sqliteExec(db, "DELETE FROM timeline_lod; DELETE FROM timeline_lod_track;");
        SqliteStatement insTrack(db, "INSERT INTO timeline_lod_track(track_id, slices, depth_count, start_ns, end_ns, "
                                     "finest_level) VALUES (?1,?2,?3,?4,?5,?6)");
        SqliteStatement insLevel(db, "INSERT INTO timeline_lod(track_id, level, cells) VALUES (?1,?2,?3)");
        produce([&](const StoredLodTrack &t, const std::vector<std::string_view> &levelCells) {
            insTrack.bind(1, t.trackId);
            insTrack.bind(2, t.slices);
            insTrack.bind(3, t.depthCount);
            insTrack.bind(4, t.startNs);
            insTrack.bind(5, t.endNs);
            insTrack.bind(6, t.finestLevel);
            insTrack.run();
            for (size_t i = 0; i < levelCells.size(); ++i) {
                insLevel.bind(1, t.trackId);
                insLevel.bind(2, t.finestLevel + int64_t(i));
                insLevel.bindBlob(3, levelCells[i].data(), levelCells[i].size());
                insLevel.run();
            }
        });
        SqliteStatement fp(db, "INSERT OR REPLACE INTO timeline_lod_state(key, value) VALUES ('fingerprint', ?1)");
        fp.bind(1, std::string_view(contentFingerprint()));
        fp.run();
        sqliteExec(db, "COMMIT");
    } catch (...) {
        sqliteExec(db, "ROLLBACK");
        throw;
    }
}

void TimelineLodStore::forEachTrack(const std::function<bool(const StoredLodTrack &)> &visit) const {
    SqliteStatement st(m_conn.db(), "SELECT track_id, slices, depth_count, start_ns, end_ns, finest_level FROM timeline_lod_track");
    while (st.step())
        if (!visit({st.columnInt(0), st.columnInt(1), st.columnInt(2), st.columnInt(3), st.columnInt(4), st.columnInt(5)})) return;
}

void TimelineLodStore::forEachLevel(const std::function<bool(const StoredLodLevel &)> &visit) const {
    SqliteStatement st(m_conn.db(), "SELECT track_id, level, cells FROM timeline_lod ORDER BY track_id, level");
    while (st.step())
        if (!visit({st.columnInt(0), st.columnInt(1), st.columnBlob(2)})) return;
}

std::vector<StoredTrackSample> TimelineLodStore::firstSlices(const std::vector<int64_t> &trackIds, int64_t limit) const {
    SqliteStatement st(m_conn.db(), "SELECT count(*), COALESCE(max(CAST(depth AS INTEGER)), 0) FROM "
                                    "(SELECT depth FROM slice WHERE track_id = ?1 LIMIT ?2)");
    std::vector<StoredTrackSample> out;
    out.reserve(trackIds.size());
    for (int64_t id : trackIds) {
        st.bind(1, id);
        st.bind(2, limit);
        StoredTrackSample s{id, 0, 0};
        if (st.step()) {
            s.slices = st.columnInt(0);
            s.maxDepth = st.columnInt(1);
        }
        st.reset();
        out.push_back(s);
    }
    return out;
}

} // namespace stepscope

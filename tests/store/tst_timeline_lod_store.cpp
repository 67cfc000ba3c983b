// TimelineLodStore, the store's side of the timeline's level-of-detail summary: what a rewrite
// stores reads back byte for byte, the fingerprint tells a current summary from a stale one (a new
// import makes it stale), a failed rewrite leaves the previous summary whole, and a track read
// without summary is sampled no further than asked.

#include "models/store/session_writer.h"
#include "models/store/timeline_lod_store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

using namespace stepscope;

namespace {
struct Stored {
    std::vector<StoredLodTrack> tracks;
    std::vector<std::pair<int64_t, std::string>> levels;  // (track, bytes), by track and level
};

Stored readBack(const TimelineLodStore &lod) {
    Stored s;
    lod.forEachTrack([&](const StoredLodTrack &t) { s.tracks.push_back(t); return true; });
    lod.forEachLevel([&](const StoredLodLevel &l) { s.levels.emplace_back(l.trackId * 100 + l.level, std::string(l.cells)); return true; });
    return s;
}

int64_t addSource(SessionStore &store, const std::string &path, int slices, int64_t *trackOut = nullptr) {
    SessionWriter w(store);
    w.begin();
    const int64_t src = w.addSource(path, "test", 1);
    RunInfo run;
    run.name = path;
    const int64_t r = w.addRun(src, run);
    const int64_t track = w.addTrack(r, {TrackKind::HostThread, std::nullopt, "t", "1", "1", 0});
    const int64_t op = w.intern("op");
    for (int i = 0; i < slices; ++i) w.addSlice({track, i * 10, 5, i % 3, std::nullopt, op, std::nullopt, std::nullopt, {}});
    w.finishSource(src, slices, 0, SourceStatus::Ok);
    w.commit();
    if (trackOut) *trackOut = track;
    return src;
}
} // namespace

class TstTimelineLodStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::filesystem::path file(const char *name) const { return std::filesystem::path(m_dir.path().toStdString()) / name; }

private slots:
    void aRewriteReadsBackAndIsCurrentUntilTheContentChanges() {
        SessionStore store(file("a.stepscope"));
        int64_t track = 0;
        addSource(store, "/data/a.json", 10, &track);
        TimelineLodStore lod(store);
        QVERIFY(!lod.upToDate());  // never built
        const std::string fine(96, '\x01'), coarse(48, '\x02');
        lod.rewrite([&](const TimelineLodStore::AddTrack &add) {
            add({track, 10, 3, 0, 95, 2}, {fine, coarse});
            add({track + 1, 7, 1, -5, 5, -1}, {});
        });
        QVERIFY(lod.upToDate());
        const Stored s = readBack(lod);
        QCOMPARE(s.tracks.size(), size_t(2));
        const auto &t = s.tracks[0].trackId == track ? s.tracks[0] : s.tracks[1];
        QCOMPARE(t.slices, int64_t(10));
        QCOMPARE(t.depthCount, int64_t(3));
        QCOMPARE(t.endNs, int64_t(95));
        QCOMPARE(t.finestLevel, int64_t(2));
        QCOMPARE(s.levels.size(), size_t(2));
        QCOMPARE(s.levels[0], std::make_pair(track * 100 + 2, fine));   // levels numbered from the finest kept
        QCOMPARE(s.levels[1], std::make_pair(track * 100 + 3, coarse));

        const std::string before = lod.contentFingerprint();
        addSource(store, "/data/b.json", 3);  // an import: the summary no longer describes the session
        QVERIFY(lod.contentFingerprint() != before);
        QVERIFY(!lod.upToDate());
    }

    void aFailedRewriteKeepsThePreviousSummary() {
        SessionStore store(file("b.stepscope"));
        int64_t track = 0;
        addSource(store, "/data/a.json", 4, &track);
        TimelineLodStore lod(store);
        lod.rewrite([&](const TimelineLodStore::AddTrack &add) { add({track, 4, 3, 0, 35, -1}, {}); });
        bool thrown = false;
        try {
            lod.rewrite([&](const TimelineLodStore::AddTrack &add) {
                add({track, 99, 1, 0, 1, -1}, {});
                throw std::runtime_error("stopped half-way");
            });
        } catch (const std::runtime_error &) {
            thrown = true;
        }
        QVERIFY(thrown);
        const Stored s = readBack(lod);
        QCOMPARE(s.tracks.size(), size_t(1));
        QCOMPARE(s.tracks[0].slices, int64_t(4));
        QVERIFY(lod.upToDate());
    }

    void firstSlicesStopsAtItsLimit() {
        SessionStore store(file("c.stepscope"));
        int64_t track = 0;
        addSource(store, "/data/a.json", 10, &track);
        const std::vector<StoredTrackSample> s = TimelineLodStore(store).firstSlices({track, track + 50}, 4);
        QCOMPARE(s.size(), size_t(2));
        QCOMPARE(s[0].slices, int64_t(4));
        QCOMPARE(s[0].maxDepth, int64_t(2));  // depths 0, 1, 2, 0
        QCOMPARE(s[1].slices, int64_t(0));    // no such track
    }
};

QTEST_GUILESS_MAIN(TstTimelineLodStore)
#include "tst_timeline_lod_store.moc"

// A session file may come from anyone: stored values that would size allocations — a slice depth
// of 2e9, a level-of-detail depth_count or level of 2e9, cells blobs of the wrong length, unsorted,
// deeper than depth_count or with absurd counts — never throw or allocate by them. The timeline model
// rejects such a cache (rebuilt when writable, built in memory when read-only), clamps depths onto
// the track's lanes, and every event is still drawn once.
#include "models/timeline/timeline_model.h"
#include "tests/test_support.h"
#include "tests/timeline/timeline_fixture.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_painter.h"

#include <QImage>

#include <algorithm>
#include <cstring>
#include <memory>

using namespace stepscope;

namespace {
void exec(SessionStore &s, const std::string &sql) { sqliteExec(s.db(), sql.c_str()); }
int64_t value(SessionStore &s, const std::string &sql) {
    SqliteStatement st(s.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}
std::vector<LodCell> cellsOf(SessionStore &s, int64_t track, int level) {
    SqliteStatement st(s.db(), "SELECT cells FROM timeline_lod WHERE track_id = ?1 AND level = ?2");
    st.bind(1, track);
    st.bind(2, int64_t(level));
    std::vector<LodCell> cells;
    if (!st.step()) return cells;
    cells.resize(size_t(sqlite3_column_bytes(st.handle(), 0)) / sizeof(LodCell));
    std::memcpy(cells.data(), sqlite3_column_blob(st.handle(), 0), cells.size() * sizeof(LodCell));
    return cells;
}
void setCells(SessionStore &s, int64_t track, int level, const std::vector<LodCell> &cells) {
    SqliteStatement st(s.db(), "UPDATE timeline_lod SET cells = ?3 WHERE track_id = ?1 AND level = ?2");
    st.bind(1, track);
    st.bind(2, int64_t(level));
    sqlite3_bind_blob64(st.handle(), 3, cells.data(), cells.size() * sizeof(LodCell), SQLITE_TRANSIENT);
    st.run();
}
} // namespace

class TstTimelineTamperedStore : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_pristine;
    test::TimelineFixtureInfo m_info;
    int m_copies = 0;

    // A fresh copy of the session with a complete, current cache, to tamper with.
    std::string copy() {
        const std::string path = m_dir.filePath(QStringLiteral("t%1.stepscope").arg(++m_copies)).toStdString();
        std::filesystem::copy_file(m_pristine, path);
        return path;
    }
    int64_t finestLevel(SessionStore &s, int64_t track) {
        return value(s, "SELECT finest_level FROM timeline_lod_track WHERE track_id = " + std::to_string(track));
    }

    // Opens the timeline over `store`, draws the whole run and a zoomed-in window, and checks what a
    // user would see: every track within the lane cap, items on their track's lanes, every event counted.
    // `around`: a slice whose neighbourhood is also read exactly.
    void openAndRender(SessionStore &store, TimelineModel &model, int64_t around = -1) {
        model.setBackgroundLoading(false);
        model.load(&store);
        QCOMPARE(int(model.tracks().size()), 3);
        std::vector<NsRange> ranges{model.extent(), {model.extent().start, model.extent().start + 200'000}};
        if (around >= 0) {
            const int64_t at = model.details(around).startNs;
            ranges.push_back({at - 100'000, at + 100'000});
        }
        for (int t = 0; t < 3; ++t) {
            const TimelineTrack &track = model.tracks()[size_t(t)];
            QVERIFY(track.depthCount >= 1 && track.depthCount <= kMaxTimelineDepth);
            for (const NsRange range : ranges) {
                std::vector<TimelineItem> items;
                model.fetch(t, range, double(range.duration()) / 1200, items);
                for (const TimelineItem &it : items) QVERIFY(it.depth < uint32_t(track.depthCount));
                if (range == model.extent()) {
                    int64_t n = 0;
                    for (const TimelineItem &it : items) n += it.count;
                    QCOMPARE(n, track.sliceCount);
                }
            }
        }
        TimelineLayout layout;
        layout.rebuild(model);
        QVERIFY(layout.contentHeight() <= 3 * (kMaxTimelineDepth * TimelineLayout::kLaneHeight + 2 * TimelineLayout::kTrackPadding) + 200);
        QImage image(1200, 700, QImage::Format_ARGB32);
        QPainter p(&image);
        TimelineFrame f;
        f.model = &model;
        f.layout = &layout;
        f.range = model.extent();
        f.size = image.size();
        std::vector<TimelineHit> hits;
        TimelinePainter::paint(p, f, hits);
        QVERIFY(!hits.empty());
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_pristine = m_dir.filePath(QStringLiteral("pristine.stepscope")).toStdString();
        SessionStore store(m_pristine);
        test::TimelineFixtureSpec spec;
        spec.steps = 12;
        spec.opsPerStep = 600;  // the host and kernel tracks get summaries; the memcpy track (12) does not
        m_info = test::writeTimelineFixture(store, spec);
        TimelineModel model;
        model.load(&store);  // builds the cache into the file
        QVERIFY(model.lodBuiltOnLoad());
        QVERIFY(finestLevel(store, m_info.hostTrack) >= 0);
        QCOMPARE(finestLevel(store, m_info.copyTrack), int64_t(-1));
    }

    void pristineCacheIsUsed() {
        SessionStore store(copy());
        TimelineModel model;
        openAndRender(store, model);
        QVERIFY(!model.lodBuiltOnLoad());
        QCOMPARE(model.tracks()[size_t(model.trackIndex(m_info.hostTrack))].depthCount, 4);
    }

    void sliceDepthOf2e9UnderACurrentCache() {
        // The cache stays current (the fingerprint covers sources and ids, not depths): exact reads
        // meet the depth and draw the slice on the track's last lane.
        SessionStore store(copy());
        exec(store, "UPDATE slice SET depth = 2000000000 WHERE id IN (" + std::to_string(m_info.launchIds[0]) + ", " +
                        std::to_string(m_info.kernelIds[0]) + ")");
        TimelineModel model;
        openAndRender(store, model, m_info.launchIds[0]);
        std::vector<TimelineItem> items;
        const int64_t at = model.details(m_info.launchIds[0]).startNs;
        model.fetch(model.trackIndex(m_info.hostTrack), {at - 1000, at + 1000}, 1.0, items);
        QVERIFY(std::any_of(items.begin(), items.end(), [&](const TimelineItem &i) {
            return i.sliceId == m_info.launchIds[0] && i.depth == 3; }));  // on the last of the 4 lanes
        QVERIFY(!model.lodBuiltOnLoad());
        QCOMPARE(model.tracks()[size_t(model.trackIndex(m_info.hostTrack))].depthCount, 4);
    }

    void sliceDepthOf2e9WhenTheCacheIsBuilt() {
        SessionStore store(copy());
        exec(store, "UPDATE slice SET depth = 2000000000 WHERE id = " + std::to_string(m_info.launchIds[0]) +
                        " OR track_id = " + std::to_string(m_info.copyTrack) + "; DELETE FROM timeline_lod_state");
        TimelineModel model;
        openAndRender(store, model, m_info.launchIds[0]);
        QVERIFY(model.lodBuiltOnLoad());
        QCOMPARE(model.tracks()[size_t(model.trackIndex(m_info.hostTrack))].depthCount, kMaxTimelineDepth);
        QCOMPARE(model.tracks()[size_t(model.trackIndex(m_info.copyTrack))].depthCount, kMaxTimelineDepth);
        // What was built passes the checks: the next open reads it.
        TimelineModel again;
        again.load(&store);
        QVERIFY(!again.lodBuiltOnLoad());
    }

    void storedValuesThatWouldSizeAllocations_data() {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("reason");
        const QString host = QString::number(m_info.hostTrack), copy = QString::number(m_info.copyTrack);
        QTest::newRow("depth_count 2e9") << "UPDATE timeline_lod_track SET depth_count = 2000000000 WHERE track_id = " + host << "depth_count";
        QTest::newRow("depth_count negative") << "UPDATE timeline_lod_track SET depth_count = -5 WHERE track_id = " + host << "depth_count";
        QTest::newRow("depth_count above the slices'") << "UPDATE timeline_lod_track SET depth_count = 300 WHERE track_id = " + copy << "depth_count";
        QTest::newRow("level 2e9") << "UPDATE timeline_lod SET level = 2000000000 WHERE track_id = " + host +
                                          " AND level = (SELECT max(level) FROM timeline_lod WHERE track_id = " + host + ")" << "level";
        QTest::newRow("finest_level 2e9") << "UPDATE timeline_lod_track SET finest_level = 2000000000 WHERE track_id = " + host << "finest_level";
        QTest::newRow("slices 2e18") << "UPDATE timeline_lod_track SET slices = 2000000000000000000 WHERE track_id = " + host << "add up";
        QTest::newRow("end_ns far out") << "UPDATE timeline_lod_track SET end_ns = 9000000000000000000 WHERE track_id = " + host << "time span";
        QTest::newRow("blob not whole cells") << "UPDATE timeline_lod SET cells = randomblob(1000) WHERE track_id = " + host << "48-byte";
        QTest::newRow("blob of random cells") << "UPDATE timeline_lod SET cells = randomblob(4800) WHERE track_id = " + host << "cell";
        QTest::newRow("empty blob") << "UPDATE timeline_lod SET cells = x'' WHERE track_id = " + host << "48-byte";
        QTest::newRow("cells of a small track") << "UPDATE timeline_lod SET track_id = " + copy + " WHERE track_id = " + host << "level";
    }

    void storedValuesThatWouldSizeAllocations() {
        QFETCH(QString, tamper);
        QFETCH(QString, reason);
        const std::string path = copy();
        {
            SessionStore store(path);
            exec(store, tamper.toStdString());
        }
        {
            // Read-only: the cache is ignored in favour of the slices, and left as it was.
            SessionStore store(path, SessionStore::Mode::ReadOnly);
            const int64_t lodRows = value(store, "SELECT count(*) FROM timeline_lod");
            TimelineLodCache lod;
            lod.load(store);
            QVERIFY2(lod.rejectedCache().find(reason.toStdString()) != std::string::npos, lod.rejectedCache().c_str());
            TimelineModel model;
            openAndRender(store, model);
            QVERIFY(model.lodBuiltOnLoad());
            QCOMPARE(value(store, "SELECT count(*) FROM timeline_lod"), lodRows);
        }
        // Writable: rebuilt, and then good for the next open.
        SessionStore store(path);
        TimelineModel model;
        openAndRender(store, model);
        QVERIFY(model.lodBuiltOnLoad());
        TimelineModel again;
        again.load(&store);
        QVERIFY(!again.lodBuiltOnLoad());
        QCOMPARE(again.tracks()[size_t(again.trackIndex(m_info.hostTrack))].depthCount, 4);
        QCOMPARE(again.tracks()[size_t(again.trackIndex(m_info.copyTrack))].depthCount, 1);
    }

    void cellsThatLie_data() {
        QTest::addColumn<int>("lie");
        QTest::newRow("unsorted buckets") << 0;
        QTest::newRow("depth beyond depth_count") << 1;
        QTest::newRow("count of 4e9") << 2;
        QTest::newRow("bucket not holding its slice") << 3;
        QTest::newRow("negative duration") << 4;
    }

    void cellsThatLie() {
        QFETCH(int, lie);
        const std::string path = copy();
        {
            SessionStore store(path);
            const int level = int(finestLevel(store, m_info.hostTrack));
            std::vector<LodCell> cells = cellsOf(store, m_info.hostTrack, level);
            QVERIFY(cells.size() > 10);
            LodCell &c = cells[5];
            switch (lie) {
            case 0: std::swap(cells[3], cells[7]); break;
            case 1: c.depth = 2'000'000'000; break;
            case 2: c.count = 4'000'000'000u; break;
            case 3: c.bucket += 1'000'000; break;
            case 4: c.longDur = -1'000'000'000; break;
            }
            setCells(store, m_info.hostTrack, level, cells);
        }
        SessionStore ro(path, SessionStore::Mode::ReadOnly);
        TimelineModel model;
        openAndRender(ro, model);
        QVERIFY(model.lodBuiltOnLoad());
    }

    void rejectionSaysWhy() {
        const std::string path = copy();
        SessionStore store(path);
        exec(store, "UPDATE timeline_lod_track SET depth_count = 2000000000 WHERE track_id = " + std::to_string(m_info.hostTrack));
        TimelineLodCache lod;
        lod.load(store);
        QVERIFY2(lod.rejectedCache().find("depth_count 2000000000") != std::string::npos, lod.rejectedCache().c_str());
        QCOMPARE(lod.track(m_info.hostTrack)->depthCount, 4);  // rebuilt from the slices
    }
};

QTEST_MAIN(TstTimelineTamperedStore)
#include "tst_timeline_tampered_store.moc"

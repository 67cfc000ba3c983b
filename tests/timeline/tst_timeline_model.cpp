// TimelineModel: level-of-detail fetch correctness (nothing lost, blocks count exactly their events,
// wide slices stay themselves, exact slices when zoomed in), the cached summary, details and search.
#include "models/timeline/range_aggregate_model.h"
#include "models/timeline/timeline_item_folder.h"
#include "models/timeline/timeline_model.h"
#include "models/timeline/timeline_search_model.h"
#include "tests/test_support.h"
#include "tests/timeline/timeline_fixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include <memory>
#include <set>
#include <tuple>

using namespace stepscope;

class TstTimelineModel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SessionStore> m_store;
    test::TimelineFixtureInfo m_info;
    TimelineModel m_model;

    int64_t sql(const std::string &q, std::initializer_list<int64_t> binds) {
        SqliteStatement st(m_store->db(), q);
        int i = 1;
        for (int64_t b : binds) st.bind(i++, b);
        return st.step() ? st.columnInt(0) : -1;
    }
    int64_t base() const { return m_model.tracks().front().baseNs; }
    // Events the items of one fetch stand for.
    static int64_t countOf(const std::vector<TimelineItem> &items) {
        int64_t n = 0;
        for (const auto &it : items) n += it.count;
        return n;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<SessionStore>((m_dir.path() + "/t.stepscope").toStdString());
        test::TimelineFixtureSpec spec;
        spec.steps = 20;
        spec.opsPerStep = 600;  // ~24k host slices, 6k kernels: both get summaries
        m_info = test::writeTimelineFixture(*m_store, spec);
        m_model.load(m_store.get());
        QVERIFY(m_model.lodBuiltOnLoad());
    }

    void tracksGroupedByRunAndDevice() {
        QCOMPARE(int(m_model.tracks().size()), 3);
        QCOMPARE(m_model.sliceCount(), m_info.slices);
        const auto &g = m_model.groups();
        QCOMPARE(g.front().title, QStringLiteral("worker0"));
        QStringList subs;
        for (int c : g.front().children) subs << g[size_t(c)].title;
        QCOMPARE(subs, QStringList({"GPU 0", "Host"}));
        const int host = m_model.trackIndex(m_info.hostTrack);
        QCOMPARE(m_model.tracks()[size_t(host)].depthCount, 4);
        QCOMPARE(int(m_model.steps().size()), 20);
    }

    void summaryIsCachedInTheSessionFile() {
        TimelineModel again;
        again.load(m_store.get());
        QVERIFY(!again.lodBuiltOnLoad());  // second open reads the cache
        QVERIFY(sql("SELECT count(*) FROM timeline_lod", {}) > 0);
    }

    void wholeRunCountsEveryEvent() {
        for (int t = 0; t < int(m_model.tracks().size()); ++t) {
            std::vector<TimelineItem> items;
            const NsRange full = m_model.extent();
            m_model.fetch(t, full, double(full.duration()) / 1200, items);
            QCOMPARE(countOf(items), m_model.tracks()[size_t(t)].sliceCount);
            if (m_model.tracks()[size_t(t)].sliceCount > 5000) {
                QVERIFY2(items.size() < size_t(m_model.tracks()[size_t(t)].sliceCount / 4), "merged when zoomed out");
                QVERIFY(std::any_of(items.begin(), items.end(), [](const TimelineItem &i) { return i.block && i.count > 1; }));
            }
        }
    }

    void blocksCountExactlyTheirEvents_data() {
        QTest::addColumn<double>("fraction");
        QTest::newRow("whole run") << 1.0;
        QTest::newRow("a third") << 0.3;
        QTest::newRow("two steps") << 0.1;
        QTest::newRow("zoomed in") << 0.002;
    }
    void blocksCountExactlyTheirEvents() {
        QFETCH(double, fraction);
        const NsRange full = m_model.extent();
        const int64_t span = int64_t(double(full.duration()) * fraction);
        const NsRange r{full.start + full.duration() / 3, full.start + full.duration() / 3 + span};
        for (int t = 0; t < int(m_model.tracks().size()); ++t) {
            const TimelineTrack &tr = m_model.tracks()[size_t(t)];
            std::vector<TimelineItem> items;
            m_model.fetch(t, r, double(span) / 1000, items);
            for (const TimelineItem &it : items) {
                if (it.block) {
                    const int64_t n = sql("SELECT count(*) FROM slice WHERE track_id=?1 AND depth=?2 AND start_ns>=?3 AND start_ns<?4",
                                          {tr.id, int64_t(it.depth), it.startNs - tr.baseNs, it.endNs() - tr.baseNs + (it.durNs == 0)});
                    QCOMPARE(n, int64_t(it.count));
                } else {
                    const int64_t n = sql("SELECT count(*) FROM slice WHERE track_id=?1 AND depth=?2 AND start_ns=?3 AND dur_ns=?4",
                                          {tr.id, int64_t(it.depth), it.startNs - tr.baseNs, it.durNs});
                    QCOMPARE(n, int64_t(1));
                }
            }
        }
    }

    void wideSlicesStayThemselves() {
        const NsRange full = m_model.extent();
        const double nsPerPx = double(full.duration()) / 1200;
        for (int t = 0; t < int(m_model.tracks().size()); ++t) {
            const TimelineTrack &tr = m_model.tracks()[size_t(t)];
            std::vector<TimelineItem> items;
            m_model.fetch(t, full, nsPerPx, items);
            std::set<std::tuple<int64_t, int64_t, uint32_t>> drawn;
            for (const auto &it : items) if (!it.block) drawn.insert({it.startNs, it.durNs, it.depth});
            SqliteStatement st(m_store->db(), "SELECT start_ns, dur_ns, depth FROM slice WHERE track_id=?1 AND dur_ns>=?2");
            st.bind(1, tr.id);
            st.bind(2, int64_t(nsPerPx * 2));
            int wide = 0;
            while (st.step()) {
                ++wide;
                QVERIFY2(drawn.count({tr.baseNs + st.columnInt(0), st.columnInt(1), uint32_t(st.columnInt(2))}),
                         "a slice two pixels wide must be drawn as itself");
            }
            if (tr.id == m_info.hostTrack) QVERIFY(wide >= 20);  // the steps at least
        }
    }

    void windowConservesOverlappingEvents() {
        // A window starting inside a step: the step (begun earlier) is still there, counts add up.
        const NsRange full = m_model.extent();
        for (double frac : {0.02, 0.0005}) {
            const NsRange r{full.start + full.duration() / 2 + 12345, full.start + full.duration() / 2 + 12345 +
                                                                          int64_t(double(full.duration()) * frac)};
            const int host = m_model.trackIndex(m_info.hostTrack);
            std::vector<TimelineItem> items;
            m_model.fetch(host, r, double(r.duration()) / 1000, items);
            QVERIFY(std::any_of(items.begin(), items.end(), [&](const TimelineItem &i) {
                return !i.block && i.depth == 0 && i.startNs < r.start && i.endNs() > r.end; }));
            if (frac < 0.01) {
                const int64_t overlapping = sql("SELECT count(*) FROM slice WHERE track_id=?1 AND start_ns<=?3 AND start_ns+dur_ns>=?2",
                                                {m_info.hostTrack, r.start - base(), r.end - base()});
                QCOMPARE(countOf(items), overlapping);
            }
        }
    }

    void exactSlicesWhenZoomedIn() {
        const int64_t at = m_model.stepRange(5).start + 10'000'000;  // mid forward/backward: GPU busy
        const NsRange r{at, at + 300'000};                              // 300 µs
        const int gpu = m_model.trackIndex(m_info.gpuTrack);
        std::vector<TimelineItem> items;
        m_model.fetch(gpu, r, 300.0, items);
        QVERIFY(!items.empty());
        std::set<int64_t> ids;
        for (const auto &it : items) {
            QVERIFY(!it.block);
            QVERIFY(it.sliceId >= 0);
            ids.insert(it.sliceId);
        }
        SqliteStatement st(m_store->db(), "SELECT id FROM slice WHERE track_id=?1 AND start_ns<=?3 AND start_ns+dur_ns>=?2");
        st.bind(1, m_info.gpuTrack);
        st.bind(2, r.start - base());
        st.bind(3, r.end - base());
        std::set<int64_t> expected;
        while (st.step()) expected.insert(st.columnInt(0));
        QCOMPARE(ids, expected);
    }

    void detailsFollowFlowsAndParents() {
        const SliceDetails k = m_model.details(m_info.kernelIds[3]);
        QVERIFY(k.valid());
        QCOMPARE(k.linked.size(), size_t(1));
        QCOMPARE(k.linked[0].id, m_info.launchIds[3]);
        QCOMPARE(k.linked[0].relation, QStringLiteral("flow from"));
        const SliceDetails l = m_model.details(m_info.launchIds[3]);
        QCOMPARE(l.name, QStringLiteral("cudaLaunchKernel"));
        QCOMPARE(l.linked.front().id, m_info.kernelIds[3]);
        QCOMPARE(l.parents.size(), size_t(3));  // op -> phase -> step
        QCOMPARE(l.parents.back().name, QStringLiteral("ProfilerStep"));
        const SliceDetails step = m_model.details(l.parents.back().id);
        QVERIFY(step.selfNs < step.durNs && step.selfNs > 0);
        QVERIFY(step.argsJson.contains("step"));
    }

    void searchFindsAcrossTheSession() {
        TimelineSearchModel search(&m_model);
        search.search(QStringLiteral("CONV2d"));
        const int64_t expected = sql("SELECT count(*) FROM slice s JOIN string n ON n.id=s.name_id WHERE n.text='aten::conv2d'", {});
        QCOMPARE(int64_t(search.hitCount()), expected);
        QVERIFY(expected > 100);
        search.next();
        QCOMPARE(search.current(), 0);
        search.previous();
        QCOMPARE(search.current(), search.hitCount() - 1);  // wraps
        QVERIFY(std::is_sorted(search.hits().begin(), search.hits().end(),
                               [](const auto &a, const auto &b) { return a.startNs < b.startNs; }));
        search.search(QStringLiteral("100%_"));
        QCOMPARE(search.hitCount(), 0);
    }

    void rangeAggregateByName() {
        RangeAggregateModel agg(&m_model);
        QAbstractItemModelTester tester(&agg, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const NsRange step = m_model.stepRange(5);
        agg.setRange({step.start, step.end});
        QVERIFY(agg.rowCount() >= 8);
        const auto &rows = agg.rows();
        auto it = std::find_if(rows.begin(), rows.end(), [](const auto &r) { return r.name == "ProfilerStep"; });
        QVERIFY(it != rows.end());
        QCOMPARE(it->count, int64_t(1));
        const int64_t children = sql("SELECT sum(c.dur_ns) FROM slice c JOIN slice p ON p.id=c.parent_id JOIN string n ON "
                                     "n.id=p.name_id WHERE n.text='ProfilerStep' AND p.start_ns=?1", {step.start - base()});
        QCOMPARE(it->selfNs, it->totalNs - children);
        QVERIFY(rows.front().totalNs >= rows.back().totalNs);
    }

    void rangeAggregateInTheBackground() {
        // The same rows as the synchronous sum, computed on a worker; a newer request wins.
        RangeAggregateModel sync(&m_model), async(&m_model);
        const NsRange whole = m_model.extent(), step = m_model.stepRange(7);
        sync.setRange({step.start, step.end});
        QSignalSpy busy(&async, &RangeAggregateModel::busyChanged);
        async.requestRange(whole);
        QVERIFY(async.busy());
        async.requestRange({step.start, step.end});  // cancels the whole-session one
        QTRY_VERIFY(!async.busy());
        QCOMPARE(async.range(), (NsRange{step.start, step.end}));
        QCOMPARE(async.rows().size(), sync.rows().size());
        for (size_t i = 0; i < sync.rows().size(); ++i) {
            QCOMPARE(async.rows()[i].name, sync.rows()[i].name);
            QCOMPARE(async.rows()[i].count, sync.rows()[i].count);
            QCOMPARE(async.rows()[i].selfNs, sync.rows()[i].selfNs);
        }
        QVERIFY(busy.count() >= 2);
        QCOMPARE(busy.last().first().toBool(), false);
        // Destroyed while busy: cancelled and joined, nothing delivered to a dead model.
        {
            RangeAggregateModel gone(&m_model);
            gone.requestRange(whole);
        }
        QTest::qWait(20);
    }

    void clockOffsetMovesTheTracks() {
        const NsRange before = m_model.extent();
        m_store->setClockOffsetNs("synthetic://timeline", 7'000);
        TimelineModel shifted;
        shifted.load(m_store.get());
        QCOMPARE(shifted.extent().start, before.start + 7'000);
        m_store->setClockOffsetNs("synthetic://timeline", 0);
    }

    void readOnlySessionBuildsInMemory() {
        const QString file = m_dir.path() + "/ro.stepscope";
        {
            SessionStore rw(file.toStdString());
            test::TimelineFixtureSpec spec;
            spec.steps = 3;
            spec.opsPerStep = 2000;
            test::writeTimelineFixture(rw, spec);
        }
        SessionStore ro(file.toStdString(), SessionStore::Mode::ReadOnly);
        TimelineModel model;
        model.load(&ro);
        QVERIFY(model.lodBuiltOnLoad());
        std::vector<TimelineItem> items;
        int64_t total = 0;
        for (int t = 0; t < int(model.tracks().size()); ++t) {
            items.clear();
            model.fetch(t, model.extent(), double(model.extent().duration()) / 800, items);
            total += countOf(items);
        }
        QCOMPARE(total, model.sliceCount());
    }

    void folderMergesOnlySubPixelRuns() {
        std::vector<TimelineItem> out;
        TimelineItemFolder f(1000, 5.0, out);
        f.addSlice(0, 2, 1, 7, 0);
        f.addSlice(4, 1, 2, 8, 0);    // gap 2 < 5 px-ns: merged with the first
        f.addSlice(100, 300, 3, 9, 0);  // wide: itself
        f.addSlice(500, 1, 4, 9, 0);    // alone: itself, though narrow
        f.finish();
        QCOMPARE(out.size(), size_t(3));
        QVERIFY(out[0].block);
        QCOMPARE(out[0].count, 2u);
        QCOMPARE(out[0].startNs, int64_t(1000));
        QCOMPARE(out[0].nameId, 7);  // the longest names the block
        QCOMPARE(out[1].sliceId, int64_t(3));
        QVERIFY(!out[2].block);
        QCOMPARE(out[2].sliceId, int64_t(4));
    }
};

QTEST_GUILESS_MAIN(TstTimelineModel)
#include "tst_timeline_model.moc"

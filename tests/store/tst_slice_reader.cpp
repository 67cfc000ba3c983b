// SliceReader and SliceLookup, the store's typed reads of slices: the edges of a range (a slice
// starting at its end is outside, a child starting at its parent's end inside), flows found from
// either end, statements kept between calls without stale bindings, and search text whose LIKE
// wildcards stand for themselves. A tiny session written in the test, its rows asserted exactly.

#include "models/store/session_writer.h"
#include "models/store/slice_lookup.h"
#include "models/store/slice_reader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <vector>

using namespace stepscope;

namespace {
struct Ids {
    int64_t trackA = 0, trackB = 0, run = 0;
    int64_t parent = 0, child = 0, next = 0, lateChild = 0, underscore = 0, other = 0;
    int64_t nameAb = 0;
};

// Track A: parent [0, 100) with child [10, 30); next [100, 150) with a zero-length child at 150;
// "a_b" at 200. Track B: "axb" at 50. One flow: child -> other.
Ids writeFixture(SessionStore &store) {
    SessionWriter w(store);
    w.begin();
    Ids ids;
    const int64_t src = w.addSource("/data/a.json", "test", 1);
    RunInfo run;
    run.name = "r";
    ids.run = w.addRun(src, run);
    ids.trackA = w.addTrack(ids.run, {TrackKind::HostThread, std::nullopt, "A", "1", "1", 0});
    ids.trackB = w.addTrack(ids.run, {TrackKind::GpuStream, 0, "B", "1", "2", 1});
    const int64_t op = w.intern("op");
    ids.nameAb = w.intern("a_b");
    const int64_t axb = w.intern("axb");
    ids.parent = w.addSlice({ids.trackA, 0, 100, 0, std::nullopt, op, std::nullopt, 7, {}});
    ids.child = w.addSlice({ids.trackA, 10, 20, 1, ids.parent, op, std::nullopt, std::nullopt, {}});
    ids.next = w.addSlice({ids.trackA, 100, 50, 0, std::nullopt, op, std::nullopt, std::nullopt, {}});
    ids.lateChild = w.addSlice({ids.trackA, 150, 0, 1, ids.next, op, std::nullopt, std::nullopt, {}});
    ids.underscore = w.addSlice({ids.trackA, 200, 10, 0, std::nullopt, ids.nameAb, std::nullopt, std::nullopt, {}});
    ids.other = w.addSlice({ids.trackB, 50, 5, 0, std::nullopt, axb, std::nullopt, 7, {}});
    w.addFlow(ids.run, ids.child, ids.other, std::nullopt);
    w.finishSource(src, 6, 0, SourceStatus::Ok);
    w.commit();
    return ids;
}

std::vector<int64_t> startingIn(SliceReader &r, int64_t track, int64_t from, int64_t to) {
    std::vector<int64_t> ids;
    r.forEachStartingIn(track, from, to, [&](const StoredSlice &s) { ids.push_back(s.id); });
    return ids;
}
} // namespace

class TstSliceReader : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SessionStore> m_store;
    Ids m_ids;

private slots:
    void initTestCase() {
        m_store = std::make_unique<SessionStore>(std::filesystem::path(m_dir.path().toStdString()) / "s.stepscope");
        m_ids = writeFixture(*m_store);
    }

    void aRangeHoldsTheSlicesStartingInItHalfOpen() {
        SliceReader r(*m_store);
        QCOMPARE(startingIn(r, m_ids.trackA, 0, 100), (std::vector<int64_t>{m_ids.parent, m_ids.child}));
        // The same statement again, other bindings: nothing of the first call stays.
        QCOMPARE(startingIn(r, m_ids.trackA, 100, 201), (std::vector<int64_t>{m_ids.next, m_ids.lateChild, m_ids.underscore}));
        QCOMPARE(startingIn(r, m_ids.trackB, 0, 1000), (std::vector<int64_t>{m_ids.other}));
        QVERIFY(startingIn(r, m_ids.trackA, 11, 100).empty());
        StoredSlice row;
        r.forEachStartingIn(m_ids.trackA, 10, 11, [&](const StoredSlice &s) { row = s; });
        QCOMPARE(row.trackId, m_ids.trackA);
        QCOMPARE(row.startNs, int64_t(10));
        QCOMPARE(row.durNs, int64_t(20));
        QCOMPARE(row.depth, int64_t(1));
    }

    void childrenStartingAtTheRangeEndAreIn() {
        SliceReader r(*m_store);
        std::vector<int64_t> parents;
        r.forEachChildStartingIn(m_ids.trackA, 100, 150, [&](const StoredChild &c) { parents.push_back(c.parentId); return true; });
        QCOMPARE(parents, std::vector<int64_t>{m_ids.next});
        parents.clear();
        r.forEachChildStartingIn(m_ids.trackA, 0, 1000, [&](const StoredChild &c) { parents.push_back(c.parentId); return false; });
        QCOMPARE(parents.size(), size_t(1));  // the visit stopped it
        const std::vector<StoredChild> direct = r.childrenOf(m_ids.trackA, m_ids.parent, 0, 100);
        QCOMPARE(direct.size(), size_t(1));
        QCOMPARE(direct[0].startNs, int64_t(10));
        QCOMPARE(direct[0].durNs, int64_t(20));
        QVERIFY(r.childrenOf(m_ids.trackA, m_ids.next, 100, 149).empty());
        QCOMPARE(r.childrenOf(m_ids.trackA, m_ids.next, 100, 150).size(), size_t(1));
    }

    void aFlowIsFoundFromEitherEnd() {
        SliceReader r(*m_store);
        for (const auto &[track, from, to] : {std::tuple{m_ids.trackA, int64_t(0), int64_t(100)},
                                              std::tuple{m_ids.trackB, int64_t(0), int64_t(100)}}) {
            const std::vector<StoredFlow> flows = r.flowsTouching(track, from, to);
            QCOMPARE(flows.size(), size_t(1));
            QCOMPARE(flows[0].fromSliceId, m_ids.child);
            QCOMPARE(flows[0].toSliceId, m_ids.other);
            QCOMPARE(flows[0].fromTrackId, m_ids.trackA);
            QCOMPARE(flows[0].toTrackId, m_ids.trackB);
            QCOMPARE(flows[0].fromEndNs, int64_t(30));
            QCOMPARE(flows[0].toStartNs, int64_t(50));
            QCOMPARE(flows[0].fromDepth, int64_t(1));
        }
        QVERIFY(r.flowsTouching(m_ids.trackA, 11, 100).empty());
        QCOMPARE(r.flowsOf(m_ids.other, 64).size(), size_t(1));
        QVERIFY(r.flowsOf(m_ids.parent, 64).empty());
    }

    void everySliceComesByTrackThenStart() {
        SliceReader r(*m_store);
        std::vector<int64_t> ids;
        r.forEachByTrack([&](const StoredSlice &s) { ids.push_back(s.id); });
        QCOMPARE(ids, (std::vector<int64_t>{m_ids.parent, m_ids.child, m_ids.next, m_ids.lateChild, m_ids.underscore, m_ids.other}));
    }

    void lookupAnswersAboutOneSlice() {
        SliceLookup l(*m_store);
        const std::optional<StoredSliceDetails> d = l.details(m_ids.child);
        QVERIFY(d);
        QCOMPARE(d->parentId, std::optional<int64_t>(m_ids.parent));
        QCOMPARE(d->name, std::string("op"));
        QVERIFY(!l.details(999));
        const std::optional<StoredSliceRef> up = l.slice(m_ids.parent);
        QVERIFY(up && !up->parentId);
        QCOMPARE(l.flowLinked(m_ids.child, true).size(), size_t(1));
        QCOMPARE(l.flowLinked(m_ids.child, true)[0].id, m_ids.other);
        QVERIFY(l.flowLinked(m_ids.child, false).empty());
        const std::vector<StoredSliceRef> corr = l.correlated(m_ids.run, 7, -1000, 1000, m_ids.parent, 16);
        QCOMPARE(corr.size(), size_t(1));
        QCOMPARE(corr[0].id, m_ids.other);
        QCOMPARE(l.sliceAt(m_ids.trackA, 100, 0), std::optional<int64_t>(m_ids.next));
        QVERIFY(!l.sliceAt(m_ids.trackA, 100, 1));
        QCOMPARE(l.text(m_ids.nameAb), std::string("a_b"));
        QCOMPARE(l.text(-5), std::string());
    }

    void searchTextIsLiteral() {
        SliceLookup l(*m_store);
        std::vector<int64_t> hits;
        l.forEachNamedLike("a_b", [&](const StoredSlice &s) { hits.push_back(s.id); return true; });
        QCOMPARE(hits, std::vector<int64_t>{m_ids.underscore});  // not "axb": '_' is no wildcard
        hits.clear();
        l.forEachNamedLike("%", [&](const StoredSlice &s) { hits.push_back(s.id); return true; });
        QVERIFY(hits.empty());
        l.forEachNamedLike("X", [&](const StoredSlice &s) { hits.push_back(s.id); return true; });
        QCOMPARE(hits, std::vector<int64_t>{m_ids.other});  // ASCII case folded, as LIKE does
    }
};

QTEST_GUILESS_MAIN(TstSliceReader)
#include "tst_slice_reader.moc"

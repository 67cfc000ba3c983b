// TimelineWindowLoader's worker is a BackgroundJob serving a queue (issue #19 item 1): closing or
// destroying it while a big window is being read interrupts the read and delivers nothing, and a
// closed session's late results are never taken by the next one (how fast it lets go: bench_cancel).

#include "models/store/session_connection.h"
#include "models/store/session_store.h"
#include "models/timeline/timeline_window_loader.h"
#include "tests/timeline/timeline_fixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <limits>

using namespace stepscope;

namespace {
constexpr int64_t kAll = std::numeric_limits<int64_t>::max() / 4;
}

class TestTimelineWindowLoader : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_file;
    test::TimelineFixtureInfo m_info;
    qint64 m_readMs = 0;  // how long reading the whole GPU track takes on this machine

private slots:
    void initTestCase() {
        m_file = std::filesystem::path(m_dir.path().toStdString()) / "s.stepscope";
        SessionStore store(m_file);
        test::TimelineFixtureSpec spec;
        spec.steps = 300;
        spec.opsPerStep = 1000;
        m_info = test::writeTimelineFixture(store, spec);
        QElapsedTimer t;
        t.start();
        SliceReader reader(store);
        const size_t n = TimelineSliceCache::querySlices(reader, m_info.gpuTrack, -kAll, kAll).size();
        TimelineSliceCache::queryFlows(reader, m_info.gpuTrack, -kAll, kAll);
        m_readMs = t.elapsed();
        qInfo("read of %zu slices and their flows: %lld ms", n, m_readMs);
        QVERIFY2(m_readMs >= 100, "the fixture must take long enough to interrupt");
    }

    void aWindowArrives() {
        TimelineWindowLoader loader;
        QVERIFY(loader.open(m_file));
        QSignalSpy ready(&loader, &TimelineWindowLoader::ready);
        loader.request({m_info.copyTrack, -kAll, kAll, 1});
        QVERIFY(loader.waitIdle(10'000));
        QVERIFY(ready.wait(10'000) || ready.count() > 0);
        const std::vector<TimelineWindowLoader::Result> results = loader.take();
        QCOMPARE(int(results.size()), 1);
        QVERIFY(!results[0].failed);
        QCOMPARE(int(results[0].slices.size()), 300);
    }

    // Destroying the loader while it reads delivers nothing (how fast it lets go: bench_cancel).
    void destroyingTheLoaderDuringAReadDeliversNothing() {
        auto loader = std::make_unique<TimelineWindowLoader>();
        QVERIFY(loader->open(m_file));
        QSignalSpy ready(loader.get(), &TimelineWindowLoader::ready);
        loader->request({m_info.gpuTrack, -kAll, kAll, 1});
        QTest::qWait(int(m_readMs / 4));
        QVERIFY(!loader->waitIdle(0));  // still reading
        loader.reset();
        QTest::qWait(int(m_readMs));  // time for the read to have ended, were it not stopped
        QCOMPARE(ready.count(), 0);
    }

    void aClosedSessionsResultsAreDropped() {
        TimelineWindowLoader loader;
        QVERIFY(loader.open(m_file));
        loader.request({m_info.gpuTrack, -kAll, kAll, 1});
        QTest::qWait(int(m_readMs / 4));
        loader.close();  // never waits for the read (bench_cancel measures it)
        QVERIFY(!loader.isOpen());
        QVERIFY(loader.take().empty());
        QVERIFY(loader.open(m_file));
        loader.request({m_info.copyTrack, -kAll, kAll, 2});
        QVERIFY(loader.waitIdle(10'000));
        QTest::qWait(int(m_readMs));  // time for the first worker to have finished, were it not stopped
        const std::vector<TimelineWindowLoader::Result> results = loader.take();
        QCOMPARE(int(results.size()), 1);
        QCOMPARE(results[0].request.generation, uint64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestTimelineWindowLoader)
#include "tst_timeline_window_loader.moc"

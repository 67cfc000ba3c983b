// MetricSeriesModel's background load is a cancellable BackgroundJob (issue #19 item 1): a raised
// flag stops MetricSeriesLoader, and destroying the model while a big session loads delivers nothing
// (how fast it lets go is measured by bench_cancel).

#include "models/concurrency/cancel_token.h"
#include "models/metrics/metric_series_loader.h"
#include "models/metrics/metric_series_model.h"
#include "models/qt/session_model.h"
#include "models/store/session_writer.h"
#include "tests/test_support.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace stepscope;

class TestMetricSeriesModelCancel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_file;
    qint64 m_loadMs = 0;  // how long the whole load takes on this machine

private slots:
    void initTestCase() {
        m_file = std::filesystem::path(m_dir.path().toStdString()) / "s.stepscope";
        SessionStore store(m_file);
        SessionWriter w(store);
        w.begin();
        const int64_t src = w.addSource("/data/smi.csv", "nvidia_smi", 0);
        const int64_t n = 1'500'000;  // two weeks of 1 s samples, over four GPUs
        for (int gpu = 0; gpu < 4; ++gpu) {
            const int64_t s = w.addMetricSeries(src, "host", "gpu_util", int64_t(gpu), "%", 1'000'000'000);
            for (int64_t i = 0; i < n / 4; ++i) w.addMetricSample(s, i * 1'000'000'000LL, double(i % 100));
        }
        w.finishSource(src, n, 0, SourceStatus::Ok);
        w.commit();
        QElapsedTimer t;
        t.start();
        QCOMPARE(int(MetricSeriesLoader::load(store).size()), 4);
        m_loadMs = t.elapsed();
        qInfo("load of %lld samples: %lld ms", qint64(n), m_loadMs);
        QVERIFY2(m_loadMs >= 100, "the fixture must take long enough to interrupt");
    }

    void aRaisedFlagStopsTheLoader() {
        const SessionStore store(m_file, SessionStore::Mode::ReadOnly);
        const CancelToken cancel;
        cancel.cancel();
        QVERIFY(MetricSeriesLoader::load(store, cancel).empty());
    }

    void destroyingTheModelDuringALoadDeliversNothing() {
        SessionModel session;
        auto metrics = std::make_unique<MetricSeriesModel>(&session);
        metrics->setBackgroundThreshold(0);
        session.setStore(std::make_unique<SessionStore>(m_file));
        QVERIFY(metrics->loading());
        QTest::qWait(int(m_loadMs / 4));
        QVERIFY(metrics->loading());
        QSignalSpy loaded(metrics.get(), &MetricSeriesModel::seriesChanged);
        metrics.reset();  // how fast it lets go: bench_cancel
        QTest::qWait(int(m_loadMs));  // time for the load to have ended, were it not cancelled
        QCOMPARE(loaded.count(), 0);
        // The session it read is left as it was: a new model loads it whole.
        MetricSeriesModel again(&session);
        again.setBackgroundThreshold(0);
        session.setStore(std::make_unique<SessionStore>(m_file));
        QTRY_VERIFY_WITH_TIMEOUT(!again.loading(), 60000);
        QCOMPARE(again.count(), 4);
    }
};

QTEST_GUILESS_MAIN(TestMetricSeriesModelCancel)
#include "tst_metric_series_model_cancel.moc"

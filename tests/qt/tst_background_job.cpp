// BackgroundJob, the one background-job type (issue #19 item 1): a superseded job's result is never
// delivered, cancel stops a polling loop within a bound, results arrive on the owner's thread, and
// destroying the owner during a running job returns promptly and delivers nothing.

#include "models/qt/background_job.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <chrono>

using namespace stepscope;
using namespace std::chrono_literals;

namespace {

// A long loop that polls the token every millisecond; `stoppedAfterMs` says how long it ran.
BackgroundJob::Work pollingLoop(std::shared_ptr<std::atomic<int64_t>> stoppedAfterMs, std::function<void()> onDeliver) {
    return [stoppedAfterMs, onDeliver](const CancelToken &cancel) -> BackgroundJob::Deliver {
        QElapsedTimer t;
        t.start();
        while (!cancel.cancelled() && t.elapsed() < 30'000) std::this_thread::sleep_for(1ms);
        stoppedAfterMs->store(t.elapsed());
        return onDeliver;
    };
}

} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT
private slots:
    void deliversOnTheOwnersThread() {
        BackgroundJob job;
        QSignalSpy busy(&job, &BackgroundJob::busyChanged);
        QThread *workThread = nullptr, *deliverThread = nullptr;
        int value = 0;
        job.start([&](const CancelToken &) -> BackgroundJob::Deliver {
            workThread = QThread::currentThread();
            const int computed = 42;
            return [&, computed] {
                deliverThread = QThread::currentThread();
                value = computed;
            };
        });
        QVERIFY(job.busy());
        QTRY_COMPARE(value, 42);
        QCOMPARE(deliverThread, QThread::currentThread());
        QVERIFY(workThread != QThread::currentThread());
        QVERIFY(!job.busy());
        QCOMPARE(busy.count(), 2);  // true, then false once delivered
    }

    void supersededResultIsNeverDelivered() {
        BackgroundJob job;
        std::vector<int> delivered;
        std::atomic<bool> release{false};
        // The first job ignores its token until released: it finishes after being superseded.
        job.start([&](const CancelToken &) -> BackgroundJob::Deliver {
            while (!release) std::this_thread::sleep_for(1ms);
            return [&] { delivered.push_back(1); };
        });
        const uint64_t second = job.start([&](const CancelToken &) -> BackgroundJob::Deliver {
            return [&] { delivered.push_back(2); };
        });
        QCOMPARE(job.generation(), second);
        QTRY_COMPARE(delivered.size(), size_t(1));
        release = true;
        QTest::qWait(100);  // the first job's late result has had its chance to arrive
        QCOMPARE(delivered, std::vector<int>{2});
        QVERIFY(!job.busy());
    }

    void cancelStopsAPollingLoopPromptly() {
        BackgroundJob job;
        auto stoppedAfter = std::make_shared<std::atomic<int64_t>>(-1);
        bool delivered = false;
        job.start(pollingLoop(stoppedAfter, [&] { delivered = true; }));
        QTest::qWait(50);
        QElapsedTimer t;
        t.start();
        job.cancel();
        QVERIFY(t.elapsed() < 20);  // cancel() does not wait for the work
        QVERIFY(!job.busy());
        QTRY_VERIFY_WITH_TIMEOUT(stoppedAfter->load() >= 0, 2000);
        QVERIFY2(stoppedAfter->load() < 50 + 200, qPrintable(QString::number(stoppedAfter->load())));
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    void cancelRunsTheRegisteredInterrupt() {
        BackgroundJob job;
        std::atomic<bool> interrupted{false}, registered{false};
        job.start([&](const CancelToken &cancel) -> BackgroundJob::Deliver {
            cancel.setInterrupt([&] { interrupted = true; });
            registered = true;
            while (!interrupted) std::this_thread::sleep_for(1ms);  // a blocking call, ended by its interrupt
            cancel.setInterrupt({});
            return {};
        });
        QTRY_VERIFY(registered.load());
        job.cancel();
        QVERIFY(interrupted.load());
    }

    void destructionDuringARunningJobIsPromptAndDeliversNothing() {
        auto stoppedAfter = std::make_shared<std::atomic<int64_t>>(-1);
        bool delivered = false;
        QElapsedTimer t;
        {
            BackgroundJob job;
            job.start(pollingLoop(stoppedAfter, [&] { delivered = true; }));
            QTest::qWait(50);
            t.start();
        }
        QVERIFY2(t.elapsed() < 200, qPrintable(QString::number(t.elapsed())));
        QVERIFY(stoppedAfter->load() >= 0);  // the worker has left: nothing runs after the owner
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    void aThrowingJobDeliversNothingAndIsNoLongerBusy() {
        BackgroundJob job;
        job.start([](const CancelToken &) -> BackgroundJob::Deliver { throw std::runtime_error("no"); });
        QSignalSpy busy(&job, &BackgroundJob::busyChanged);
        QTRY_VERIFY(!job.busy());  // finished, with nothing to deliver
        QCOMPARE(busy.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_background_job.moc"

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

// A loop that polls the token every millisecond and would otherwise run for 30 s; `stopped` is set
// on leaving: 1 when the token stopped it, 2 when it ran out.
BackgroundJob::Work pollingLoop(std::shared_ptr<std::atomic<int>> stopped, std::function<void()> onDeliver) {
    return [stopped, onDeliver](const CancelToken &cancel) -> BackgroundJob::Deliver {
        QElapsedTimer t;
        t.start();
        while (!cancel.cancelled() && t.elapsed() < 30'000) std::this_thread::sleep_for(1ms);
        stopped->store(cancel.cancelled() ? 1 : 2);
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

    // cancel() does not wait for the work: it returns while the work is held at a gate only the
    // test opens; the work's late result is dropped.
    void cancelReturnsWhileTheWorkStillRuns() {
        BackgroundJob job;
        std::atomic<bool> gate{false}, started{false}, finished{false};
        bool delivered = false;
        job.start([&](const CancelToken &) -> BackgroundJob::Deliver {
            started = true;
            for (int i = 0; i < 30'000 && !gate; ++i) std::this_thread::sleep_for(1ms);
            finished = true;
            return [&] { delivered = true; };
        });
        QTRY_VERIFY(started.load());
        job.cancel();
        QVERIFY(!finished.load());  // cancel() came back with the work still held at the gate
        QVERIFY(!job.busy());
        gate = true;
        QTRY_VERIFY(finished.load());
        QTest::qWait(50);  // the late result has had its chance to arrive
        QVERIFY(!delivered);
    }

    void cancelStopsAPollingLoop() {
        BackgroundJob job;
        auto stopped = std::make_shared<std::atomic<int>>(0);
        bool delivered = false;
        job.start(pollingLoop(stopped, [&] { delivered = true; }));
        QTest::qWait(50);
        job.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(stopped->load() != 0, 60'000);
        QCOMPARE(stopped->load(), 1);  // stopped by the token, not by running out
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

    // The owner's end stops the work through its token (how fast: bench_cancel's owners) and
    // joins it: nothing runs after the owner, and nothing is delivered.
    void destructionDuringARunningJobStopsItAndDeliversNothing() {
        auto stopped = std::make_shared<std::atomic<int>>(0);
        bool delivered = false;
        {
            BackgroundJob job;
            job.start(pollingLoop(stopped, [&] { delivered = true; }));
            QTest::qWait(50);
        }
        QCOMPARE(stopped->load(), 1);  // the worker has left, stopped by the token
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

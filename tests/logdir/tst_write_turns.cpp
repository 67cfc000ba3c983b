// WriteTurns: file i writes only after every file before it has finished, whatever order the
// workers finish in; a turn given up unused counts as finished; the Guard ends a turn however its
// scope is left; abort() wakes every waiter with WriteTurnsAborted.

#include "importers/logdir/write_turns.h"

#include <QtTest>

#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace stepscope;

class TestWriteTurns : public QObject {
    Q_OBJECT
private slots:
    void turnsThatHaveComeDoNotWait() {
        WriteTurns turns(3);
        turns.wait(0);  // the first turn is open at once
        turns.finish(0);
        turns.wait(1);
        // Finishing a later turn first (a file given up unused) leaves it done when its turn comes.
        turns.finish(2);
        turns.finish(1);
        turns.wait(2);
    }

    void writesComeOutInInputOrder() {
        // Workers started in reverse order each wait for their turn, then write: the writes come out
        // in file order whatever the scheduling.
        constexpr size_t kFiles = 8;
        WriteTurns turns(kFiles);
        std::mutex mutex;
        std::vector<size_t> written;
        std::vector<std::thread> workers;
        for (size_t i = kFiles; i-- > 0;)
            workers.emplace_back([&, i] {
                WriteTurns::Guard guard{turns, i};
                turns.wait(i);
                std::lock_guard lock(mutex);
                written.push_back(i);
            });
        for (std::thread &t : workers) t.join();
        QCOMPARE(written, std::vector<size_t>({0, 1, 2, 3, 4, 5, 6, 7}));
    }

    void waiterIsReleasedOnlyByTheTurnBeforeIt() {
        WriteTurns turns(3);
        std::mutex mutex;
        std::vector<std::string> events;
        auto note = [&](std::string e) { std::lock_guard lock(mutex); events.push_back(std::move(e)); };
        std::thread last([&] {
            turns.wait(2);
            note("turn 2");
        });
        turns.finish(1);
        note("finished 1");
        turns.finish(0);  // only now have 0 and 1 both finished
        last.join();
        QCOMPARE(events, std::vector<std::string>({"finished 1", "turn 2"}));
    }

    void guardFinishesATurnLeftByAnException() {
        WriteTurns turns(2);
        try {
            WriteTurns::Guard guard{turns, 0};
            throw std::runtime_error("importer failed");
        } catch (const std::runtime_error &) {
        }
        turns.wait(1);  // would block for ever had the guard not finished turn 0
    }

    void abortWakesEveryWaiter() {
        WriteTurns turns(3);
        std::mutex mutex;
        int aborted = 0;
        std::vector<std::thread> waiters;
        for (size_t i : {size_t(1), size_t(2)})
            waiters.emplace_back([&, i] {
                try {
                    turns.wait(i);
                } catch (const WriteTurnsAborted &) {
                    std::lock_guard lock(mutex);
                    ++aborted;
                }
            });
        turns.abort();
        for (std::thread &t : waiters) t.join();
        QCOMPARE(aborted, 2);
        QVERIFY_THROWS_EXCEPTION(WriteTurnsAborted, turns.wait(0));  // later calls fail at once too
    }
};

QTEST_GUILESS_MAIN(TestWriteTurns)
#include "tst_write_turns.moc"

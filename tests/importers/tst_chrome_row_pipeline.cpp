// Specification of the pieces of TraceEventWriter's row pipeline (importers/chrome): BoundedQueue
// (bounded hand-over between the producer thread and the SQLite writer, finish and cancel),
// RowBatch + BulkRowInserter (a batch inserted by one statement: order, rowids, NULLs, text) and
// ChunkedArray (indexing across chunks, stable sorting through its iterators).

#include "importers/common/bounded_queue.h"
#include "importers/common/chunked_array.h"
#include "models/store/bulk_row_inserter.h"
#include "models/store/sqlite_statement.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

using namespace stepscope;
using namespace std::chrono_literals;

class TstChromeRowPipeline : public QObject {
    Q_OBJECT
private slots:
    void queueHandsOverEverythingInOrder() {
        BoundedQueue<int> queue(3);
        constexpr int kItems = 10000;
        std::thread producer([&] {
            for (int i = 0; i < kItems; ++i)
                QVERIFY(queue.push(i));
            queue.finish();
        });
        std::vector<int> got;
        int item = -1;
        BoundedQueue<int>::Pop status;
        while ((status = queue.pop(item, 1000ms)) != BoundedQueue<int>::Pop::Finished)
            if (status == BoundedQueue<int>::Pop::Item)
                got.push_back(item);
        producer.join();
        QCOMPARE(int(got.size()), kItems);
        for (int i = 0; i < kItems; ++i)
            QCOMPARE(got[size_t(i)], i);
    }

    void fullQueueBlocksTheProducerUntilCancel() {
        BoundedQueue<int> queue(2);
        QVERIFY(queue.push(1));
        QVERIFY(queue.push(2));
        // No room: this push must wait, and a cancel must release it unqueued. Were the queue
        // unbounded, it would return true at once.
        bool pushed = true;
        std::thread producer([&] { pushed = queue.push(3); });
        queue.cancel();
        producer.join();
        QVERIFY(!pushed);
        QVERIFY(queue.cancelled());
        QVERIFY(!queue.push(4));  // and every later one
        int item = 0;
        QCOMPARE(queue.pop(item, 0ms), BoundedQueue<int>::Pop::TimedOut);  // queued items were dropped
    }

    void popTimesOutWhileNothingComes() {
        BoundedQueue<int> queue(2);
        int item = 0;
        QCOMPARE(queue.pop(item, 0ms), BoundedQueue<int>::Pop::TimedOut);
        QVERIFY(queue.push(7));
        queue.finish();
        QCOMPARE(queue.pop(item, 0ms), BoundedQueue<int>::Pop::Item);  // drained before Finished
        QCOMPARE(item, 7);
        QCOMPARE(queue.pop(item, 0ms), BoundedQueue<int>::Pop::Finished);
    }

    void bulkInsertKeepsOrderNullsAndText() {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        sqliteExec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, s TEXT)");
        sqliteExec(db, "INSERT INTO t(a) VALUES (0)");  // rowid 1 taken: new rows continue from 2
        {
            BulkRowInserter inserter(db, "test_rows", "t", {"a", "b", "s"});
            RowBatch batch(2, true);
            const int64_t r1[] = {10, 11}, r2[] = {20, 0}, r3[] = {30, 31};
            batch.add(r1, 0, "one");
            batch.add(r2, 1u << 1, "");          // b NULL, empty text
            batch.add(r3, 1u << 2, "ignored");   // s NULL
            inserter.insert(batch);
            QCOMPARE(sqlite3_last_insert_rowid(db), sqlite3_int64(4));
            batch.reset(2, true);
            const int64_t r4[] = {40, 41};
            batch.add(r4, 1u << 0, "four");
            inserter.insert(batch);
            inserter.insert(RowBatch(2, true));  // empty: nothing
        }
        SqliteStatement q(db, "SELECT id, quote(a), quote(b), quote(s) FROM t WHERE id > 1 ORDER BY id");
        QStringList rows;
        while (q.step())
            rows << QString::fromStdString(std::to_string(q.columnInt(0)) + "|" + q.columnText(1) + "|" +
                                           q.columnText(2) + "|" + q.columnText(3));
        QCOMPARE(rows, QStringList({"2|10|11|'one'", "3|20|NULL|''", "4|30|31|NULL", "5|NULL|41|'four'"}));
        // The module is dropped with the inserter: the name is free again.
        {
            BulkRowInserter again(db, "test_rows", "t", {"a"});
            RowBatch one(1, false);
            const int64_t r[] = {50};
            one.add(r, 0);
            again.insert(one);
        }
        SqliteStatement count(db, "SELECT COUNT(*) FROM t");
        QVERIFY(count.step());
        QCOMPARE(count.columnInt(0), int64_t(6));
        sqlite3_close(db);
    }

    void bulkInsertRejectsAMismatchedBatch() {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        sqliteExec(db, "CREATE TABLE t(a INTEGER, b INTEGER)");
        {
            BulkRowInserter inserter(db, "test_rows", "t", {"a", "b"});
            RowBatch wrong(1, false);
            const int64_t r[] = {1};
            wrong.add(r, 0);
            QVERIFY_THROWS_EXCEPTION(StoreError, inserter.insert(wrong));
        }
        sqlite3_close(db);
    }

    void chunkedArrayIndexesAndSortsAcrossChunks() {
        ChunkedArray<int64_t, 4> array;  // 16 per chunk
        std::vector<int64_t> reference;
        std::mt19937 rng(7);
        for (int i = 0; i < 1000; ++i) {
            const int64_t v = int64_t(rng() % 50);  // many ties
            array.push_back(v * 1000 + i);          // low digits: arrival, to check stability
            reference.push_back(v * 1000 + i);
        }
        QCOMPARE(array.size(), reference.size());
        for (size_t i = 0; i < reference.size(); ++i)
            QCOMPARE(array[i], reference[i]);
        const auto byValue = [](int64_t a, int64_t b) { return a / 1000 < b / 1000; };
        std::stable_sort(array.begin(), array.end(), byValue);
        std::stable_sort(reference.begin(), reference.end(), byValue);
        QVERIFY(std::equal(array.begin(), array.end(), reference.begin(), reference.end()));
        const int64_t *first = &array[0];
        for (int i = 0; i < 100; ++i)
            array.push_back(i);
        QCOMPARE(&array[0], first);  // growing never moves elements
        array.clear();
        QVERIFY(array.empty());
    }
};

QTEST_GUILESS_MAIN(TstChromeRowPipeline)
#include "tst_chrome_row_pipeline.moc"

// TimeRangeController, the linked zoom every view shares (issue #19 item 6): one signal per change
// and none for a no-op, the 1 µs minimum, the clamp (one session width of room past either end, so
// never wider than three sessions), the zoom history (gestures commit once, a new range after Back
// drops the forward part, 200 entries kept) and the selection.

#include "models/qt/time_range_controller.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stepscope;

class TestTimeRangeController : public QObject {
    Q_OBJECT
private slots:
    void signalsOncePerChange() {
        TimeRangeController t;
        QSignalSpy range(&t, &TimeRangeController::rangeChanged), full(&t, &TimeRangeController::fullRangeChanged);
        t.setFullRange({1000, 1'001'000});
        QCOMPARE(full.count(), 1);
        QCOMPARE(range.count(), 1);
        QCOMPARE(t.range(), (NsRange{1000, 1'001'000}));
        t.setRange({2000, 502'000});
        QCOMPARE(range.count(), 2);
        t.setRange({2000, 502'000});  // the same range: nothing
        QCOMPARE(range.count(), 2);
        t.setFullRange({1000, 1'001'000});  // the same extent, range not at it: back to it
        QCOMPARE(range.count(), 3);
        QCOMPARE(t.range(), t.fullRange());
    }

    void clamps() {
        TimeRangeController t;
        t.setFullRange({0, 1'000'000});
        t.setRange({5000, 5100});  // below 1 µs: widened about its middle
        QCOMPARE(t.range(), (NsRange{4550, 5550}));
        t.setRange({9000, 8000});  // reversed: swapped
        QCOMPARE(t.range(), (NsRange{8000, 9000}));
        t.setRange({-10'000'000, 10'000'000});  // wider than three sessions
        QCOMPARE(t.range(), (NsRange{-1'000'000, 2'000'000}));
        t.setRange({-5'000'000, -4'000'000});  // past the start: slid to one session before it
        QCOMPARE(t.range(), (NsRange{-1'000'000, 0}));
        t.setRange({4'000'000, 5'000'000});  // past the end
        QCOMPARE(t.range(), (NsRange{1'000'000, 2'000'000}));
    }

    void history() {
        TimeRangeController t;
        t.setFullRange({0, 1'000'000});
        QVERIFY(!t.canGoBack());
        t.setRange({0, 500'000});
        t.setRange({0, 250'000});
        QVERIFY(t.canGoBack() && !t.canGoForward());
        t.back();
        QCOMPARE(t.range(), (NsRange{0, 500'000}));
        t.back();
        QCOMPARE(t.range(), t.fullRange());
        QVERIFY(!t.canGoBack());
        t.forward();
        QCOMPARE(t.range(), (NsRange{0, 500'000}));
        t.setRange({100'000, 200'000});  // a new range after Back: the forward part goes
        QVERIFY(!t.canGoForward());
        // A gesture: many ranges unrecorded, one entry when it ends.
        for (int i = 1; i <= 50; ++i) t.setRange({100'000 + i * 1000, 200'000 + i * 1000}, false);
        t.commitHistory();
        t.commitHistory();  // nothing new: no second entry
        t.back();
        QCOMPARE(t.range(), (NsRange{100'000, 200'000}));
        // At most 200 entries.
        for (int i = 0; i < 300; ++i) t.setRange({i * 1000, i * 1000 + 5000});
        int backs = 0;
        while (t.canGoBack()) {
            t.back();
            ++backs;
        }
        QCOMPARE(backs, 199);
        t.setFullRange({0, 2'000'000});  // a new session: history starts again
        QVERIFY(!t.canGoBack() && !t.canGoForward());
    }

    // A gesture commits itself once it pauses for kGestureCommitMs: one entry, no call needed.
    void gestureCommitsWhenItPauses() {
        TimeRangeController t;
        t.setFullRange({0, 1'000'000});
        for (int i = 1; i <= 20; ++i) t.setRange({i * 1000, 500'000 + i * 1000}, false);
        QVERIFY(!t.canGoBack());
        QTRY_VERIFY_WITH_TIMEOUT(t.canGoBack(), 5 * TimeRangeController::kGestureCommitMs);
        t.back();
        QCOMPARE(t.range(), t.fullRange());
        t.forward();
        QCOMPARE(t.range(), (NsRange{20'000, 520'000}));
        QVERIFY(!t.canGoForward());
    }

    void selection() {
        TimeRangeController t;
        t.setFullRange({0, 1'000'000});
        QSignalSpy sel(&t, &TimeRangeController::selectionChanged);
        t.setSelection({300'000, 100'000});
        QCOMPARE(t.selection(), (NsRange{100'000, 300'000}));
        t.setSelection({100'000, 300'000});
        QCOMPARE(sel.count(), 1);
        t.zoomToSelection();
        QCOMPARE(t.range(), t.selection());
        t.clearSelection();
        QVERIFY(!t.selection().valid());
        const NsRange before = t.range();
        t.zoomToSelection();  // nothing selected: no zoom
        QCOMPARE(t.range(), before);
    }
};

QTEST_GUILESS_MAIN(TestTimeRangeController)
#include "tst_time_range_controller.moc"

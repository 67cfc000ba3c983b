// Specification of SliceNester (importers/common), the per-track depth/parent helper the Chrome
// importer uses: unsorted input, equal starts, zero-length slices, overlap without nesting on
// overflow rows, and the flow-binding lookups.

#include "importers/common/slice_nester.h"
#include "tests/test_support.h"

#include <QtTest>

#include <vector>

using namespace stepscope;
using Span = SliceNester::Span;

class TstChromeSliceNester : public QObject {
    Q_OBJECT
private slots:
    void nestsUnsortedInput() {
        // 0:[2,3) 1:[0,10) 2:[4,6) 3:[4,5) 4:[0,11) 5:[11,11]
        const std::vector<Span> spans{{2, 1}, {0, 10}, {4, 2}, {4, 1}, {0, 11}, {11, 0}};
        SliceNester n;
        n.nest(spans);
        QCOMPARE(n.order(), (std::vector<uint32_t>{4, 1, 0, 2, 3, 5}));
        const std::vector<int32_t> depth{2, 1, 2, 3, 0, 0}, parent{1, 4, 1, 2, -1, -1};
        for (size_t i = 0; i < spans.size(); ++i) {
            QCOMPARE(n.depth(i), depth[i]);
            QCOMPARE(n.parent(i), parent[i]);
        }
        QCOMPARE(n.overflowCount(), 0);
        QCOMPARE(n.maxDepth(), 3);
    }

    void overlapGoesToOverflowRows() {
        // a:[0,10) and c:[6,8) nest; b:[5,15) starts inside a and ends after it; d:[12,20) only
        // overlaps b, which is no longer on the regular rows; e:[13,16) overlaps b on the overflow band.
        const std::vector<Span> spans{{0, 10}, {5, 10}, {6, 2}, {12, 8}, {13, 3}, {14, 10}};
        SliceNester n;
        n.nest(spans);
        QCOMPARE(n.overflowCount(), 1 + 1);   // b, and f:[14,24) which overlaps d without nesting
        QCOMPARE(n.depth(0), 0);
        QCOMPARE(n.depth(2), 1);              // c in a
        QCOMPARE(n.parent(2), 0);
        QCOMPARE(n.depth(3), 0);              // d
        QCOMPARE(n.depth(4), 1);              // e in d
        QVERIFY(n.overflowed(1));
        QVERIFY(n.overflowed(5));
        QCOMPARE(n.firstOverflowDepth(), 2);  // just below the deepest regular row
        QCOMPARE(n.depth(1), 2);              // b on the first overflow row
        QCOMPARE(n.depth(5), 3);              // f also overlaps b there: one row further down
        QCOMPARE(n.parent(1), SliceNester::kNone);
    }

    void bindingLookups() {
        const std::vector<Span> spans{{0, 10}, {2, 3}, {2, 0}, {20, 5}};
        SliceNester n;
        n.nest(spans);
        QCOMPARE(n.enclosing(-1), SliceNester::kNone);
        QCOMPARE(n.enclosing(0), 0);
        QCOMPARE(n.enclosing(2), 1);   // the real slice, not the zero-length marker inside it
        QCOMPARE(n.enclosing(4), 1);
        QCOMPARE(n.enclosing(5), 0);   // end is exclusive
        QCOMPARE(n.enclosing(15), SliceNester::kNone);
        QCOMPARE(n.nextStarting(3), 3);
        QCOMPARE(n.nextStarting(30), SliceNester::kNone);
    }

    void emptyTrack() {
        SliceNester n;
        n.nest({});
        QCOMPARE(n.size(), size_t(0));
        QCOMPARE(n.enclosing(0), SliceNester::kNone);
    }
};

QTEST_GUILESS_MAIN(TstChromeSliceNester)
#include "tst_chrome_slice_nester.moc"

// Specification of SliceNester (importers/common), the per-track depth/parent helper the Chrome
// importer uses: unsorted input, equal starts, zero-length slices, overlap without nesting on
// overflow rows, the flow-binding lookups, and the piecewise sort of big tracks (same results as
// one plain sort, polling between pieces, stopping when the poll says cancel).

#include "importers/common/slice_nester.h"
#include "tests/test_support.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

using namespace stepscope;
using Span = SliceNester::Span;

namespace {

// The nesting rules written plainly: one std::sort, then stack rounds with overflow bands.
struct PlainNesting {
    std::vector<uint32_t> order;
    std::vector<int32_t> depth, parent;
    int64_t overflow = 0;
};

PlainNesting plainNest(const std::vector<Span> &spans) {
    PlainNesting r;
    const size_t n = spans.size();
    r.order.resize(n);
    std::iota(r.order.begin(), r.order.end(), 0u);
    std::sort(r.order.begin(), r.order.end(), [&](uint32_t a, uint32_t b) {
        if (spans[a].start != spans[b].start)
            return spans[a].start < spans[b].start;
        if (spans[a].dur != spans[b].dur)
            return spans[a].dur > spans[b].dur;
        return a < b;
    });
    r.depth.assign(n, 0);
    r.parent.assign(n, -1);
    std::vector<uint8_t> overflowed(n, 0);
    std::vector<uint32_t> items = r.order, rest;
    int32_t base = 0, maxDepth = -1;
    while (!items.empty()) {
        std::vector<uint32_t> stack;
        rest.clear();
        for (uint32_t i : items) {
            while (!stack.empty() && spans[stack.back()].start + spans[stack.back()].dur <= spans[i].start)
                stack.pop_back();
            if (!stack.empty() && spans[i].start + spans[i].dur > spans[stack.back()].start + spans[stack.back()].dur) {
                rest.push_back(i);
                continue;
            }
            r.depth[i] = stack.empty() ? base : r.depth[stack.back()] + 1;
            r.parent[i] = stack.empty() ? -1 : int32_t(stack.back());
            maxDepth = std::max(maxDepth, r.depth[i]);
            stack.push_back(i);
        }
        for (uint32_t i : rest)
            if (!overflowed[i]) {
                overflowed[i] = 1;
                ++r.overflow;
            }
        base = maxDepth + 1;
        items.swap(rest);
    }
    return r;
}

// A big track: nested calls, mostly in time order (as traces are) with shuffled stretches, equal
// starts, zero-length markers and some overlap without nesting.
std::vector<Span> bigTrack(size_t n, bool shuffled) {
    std::mt19937_64 rng(42);
    std::vector<Span> spans;
    spans.reserve(n);
    int64_t t = 0;
    while (spans.size() < n) {
        const int64_t outer = 100 + int64_t(rng() % 50);
        spans.push_back({t, outer});
        spans.push_back({t, outer - 10});                     // same start, shorter: nests inside
        spans.push_back({t + 20, int64_t(rng() % 3) * 10});   // sometimes zero-length
        if (rng() % 5 == 0)
            spans.push_back({t + 50, outer});                 // ends after its parent: overflow
        t += outer + int64_t(rng() % 4);
    }
    spans.resize(n);
    if (shuffled)
        for (size_t k = 0; k + 1000 < n; k += 5000)
            std::shuffle(spans.begin() + std::ptrdiff_t(k), spans.begin() + std::ptrdiff_t(k + 1000), rng);
    return spans;
}

} // namespace

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

    void piecewiseSortMatchesOnePlainSort() {
        for (const bool shuffled : {false, true}) {
            // Several sort runs, merges of every width, and a fully reversed stretch at the end.
            std::vector<Span> spans = bigTrack(5 * SliceNester::kSortRun + 123, shuffled);
            std::reverse(spans.end() - 40000, spans.end());
            const PlainNesting expected = plainNest(spans);
            SliceNester n;
            int64_t polls = 0;
            QVERIFY(n.nest(spans, [&] { ++polls; return true; }));
            QCOMPARE(n.order(), expected.order);
            for (size_t i = 0; i < spans.size(); ++i) {
                QCOMPARE(n.depth(i), expected.depth[i]);
                QCOMPARE(n.parent(i), expected.parent[i]);
            }
            QCOMPARE(n.overflowCount(), expected.overflow);
            QVERIFY(expected.overflow > 0);
            // At least one poll per sorted run and per kPollItems nested slices.
            QVERIFY(polls >= int64_t(spans.size() / SliceNester::kSortRun + spans.size() / SliceNester::kPollItems));
        }
    }

    void cancelStopsNestingAtThePoll() {
        const std::vector<Span> spans = bigTrack(4 * SliceNester::kSortRun, true);
        SliceNester n;
        int polls = 0;
        QVERIFY(!n.nest(spans, [&] { return ++polls < 3; }));
        QCOMPARE(polls, 3);  // not called again after it said stop
        // A small track needs no poll, and the nester is reusable after a cancelled run.
        QVERIFY(n.nest(std::vector<Span>{{0, 10}, {2, 3}}, [] { return false; }));
        QCOMPARE(n.parent(1), 0);
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

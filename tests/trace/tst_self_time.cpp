// sliceSelfTimes (models/trace/slice_self_time.h), the one self-time loop of the op table, the
// input pipeline's stages, the Range tab and the details pane: a parent's duration less what its
// direct children cover inside it, clipped to the parent, never below zero.

#include "models/trace/slice_self_time.h"

#include <QtTest>

#include <utility>
#include <vector>

using namespace stepscope;

namespace {

struct Child {
    size_t parent;
    int64_t start, end;
};

std::vector<int64_t> selfTimes(const std::vector<std::pair<int64_t, int64_t>> &parents, const std::vector<Child> &children) {
    return sliceSelfTimes(parents.size(), [&](size_t i) { return parents[i]; }, [&](auto add) {
        for (const Child &c : children) add(c.parent, c.start, c.end);
    });
}

} // namespace

class TstSelfTime : public QObject {
    Q_OBJECT
private slots:
    void childlessParentIsAllSelf() { QCOMPARE(selfTimes({{10, 110}}, {}), (std::vector<int64_t>{100})); }

    void directChildrenAreTakenOff() {
        // [0, 100) with children [10, 30) and [50, 90): 100 − 20 − 40.
        QCOMPARE(selfTimes({{0, 100}}, {{0, 10, 30}, {0, 50, 90}}), (std::vector<int64_t>{40}));
    }

    void eachParentCountsOnlyItsOwnChildren() {
        // Parent 1 is parent 0's child; parent 2 is 1's: each takes off only its direct children.
        const std::vector<std::pair<int64_t, int64_t>> parents = {{0, 100}, {10, 60}, {20, 30}};
        QCOMPARE(selfTimes(parents, {{0, 10, 60}, {1, 20, 30}}), (std::vector<int64_t>{50, 40, 10}));
    }

    void aChildIsClippedToItsParent() {
        // A session that says a child runs past its parent: only the part inside counts.
        QCOMPARE(selfTimes({{100, 200}}, {{0, 50, 150}, {0, 180, 400}}), (std::vector<int64_t>{30}));
        QCOMPARE(selfTimes({{100, 200}}, {{0, 300, 400}}), (std::vector<int64_t>{100}));  // wholly outside
    }

    void neverBelowZero() {
        // Overlapping children (a tampered session) cover more than the parent lasts.
        QCOMPARE(selfTimes({{0, 100}}, {{0, 0, 80}, {0, 20, 100}}), (std::vector<int64_t>{0}));
    }

    void aChildOfNoParentHereIsSkipped() {
        QCOMPARE(selfTimes({{0, 100}}, {{1, 0, 50}, {size_t(-1), 0, 50}}), (std::vector<int64_t>{100}));
        QCOMPARE(selfTimes({}, {{0, 0, 50}}), std::vector<int64_t>{});
    }
};

QTEST_GUILESS_MAIN(TstSelfTime)
#include "tst_self_time.moc"

// Slices that overlap like a staircase (each starts inside the previous one and ends after it) made
// nesting quadratic: one overflow band, and one pass over what is left, per slice. The bands are now
// capped and what is left shares one clipping band, so the work is linear in the slices; the Chrome
// import records one warning with the count, not one per slice. (Speed itself is measured by
// tests/bench/bench_staircase_nesting, not here.)

#include "importers/chrome/chrome_trace_importer.h"
#include "importers/common/slice_nester.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <vector>

using namespace stepscope;
using Span = SliceNester::Span;

namespace {
// n slices, slice i over [i, i + 2n): every one starts inside all earlier ones and ends after them.
std::vector<Span> staircase(int64_t n, int64_t origin = 0) {
    std::vector<Span> spans;
    spans.reserve(size_t(n));
    for (int64_t i = 0; i < n; ++i) spans.push_back({origin + i, 2 * n});
    return spans;
}
} // namespace

class TstSliceNesterStaircase : public QObject {
    Q_OBJECT
private slots:
    void staircaseNestsInLinearWork() {
        const int64_t n = 200'000;
        const std::vector<Span> spans = staircase(n);
        SliceNester nester;
        QVERIFY(nester.nest(spans));
        constexpr int bands = SliceNester::kMaxOverflowBands;
        // Before the cap: n passes, n^2/2 slices looked at.
        QVERIFY2(nester.nestingWork() <= (bands + 2) * n, qPrintable(QString::number(nester.nestingWork())));
        QCOMPARE(nester.overflowCount(), n - 1);
        // Slice 0 on the regular row, one slice per overflow band, the rest on the clipping band:
        // each closes the one before it there, so they all sit at one depth.
        QCOMPARE(nester.firstOverflowDepth(), 1);
        QCOMPARE(nester.clippedCount(), n - 1 - bands);
        QCOMPARE(nester.maxDepth(), bands + 1);
        for (int64_t i = 0; i <= bands; ++i) QCOMPARE(nester.depth(size_t(i)), int32_t(i));
        for (int64_t i = bands + 1; i < n; i += 9973) {
            QCOMPARE(nester.depth(size_t(i)), bands + 1);
            QCOMPARE(nester.parent(size_t(i)), SliceNester::kNone);
        }
        // Flow binding looks only at regular slices: slice 0 is open everywhere.
        QCOMPARE(nester.enclosing(n), 0);
        QCOMPARE(nester.nextStarting(n - 1), int32_t(n - 1));
    }

    void slicesNestedInTheClippingBandKeepTheirParent() {
        // A staircase of pairs: A_i = [10i, 10i + 1000) and B_i inside it, ending after B_(i-1).
        // Each band takes one pair; past the cap, B_i still nests under A_i and A_(i+1) closes both.
        std::vector<Span> spans;
        for (int64_t i = 0; i < 40; ++i) {
            spans.push_back({10 * i, 1000});
            spans.push_back({10 * i + 1, 998});
        }
        SliceNester nester;
        QVERIFY(nester.nest(spans));
        constexpr int bands = SliceNester::kMaxOverflowBands;
        QCOMPARE(nester.clippedCount(), int64_t(2 * (40 - 1 - bands)));
        for (size_t i = bands + 1; i < 40; ++i) {
            QVERIFY(nester.overflowed(2 * i) && nester.overflowed(2 * i + 1));
            QCOMPARE(nester.depth(2 * i), 2 * (bands + 1));
            QCOMPARE(nester.parent(2 * i), SliceNester::kNone);
            QCOMPARE(nester.depth(2 * i + 1), 2 * (bands + 1) + 1);
            QCOMPARE(nester.parent(2 * i + 1), int32_t(2 * i));
        }
    }

    void fewOverflowBandsAreUnchanged() {
        // Up to the cap, overflow bands are what they were: a staircase of 10 has 9 bands.
        const std::vector<Span> spans = staircase(10);
        SliceNester nester;
        QVERIFY(nester.nest(spans));
        QCOMPARE(nester.clippedCount(), int64_t(0));
        for (size_t i = 0; i < spans.size(); ++i) QCOMPARE(nester.depth(i), int32_t(i));
    }

    void chromeImportWarnsOnceWithTheCount() {
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("stairs.json")).toStdString();
        {
            std::ofstream out(file);
            out << "{\"traceEvents\": [";
            const int n = 20'000;
            for (int i = 0; i < n; ++i)
                out << (i ? ",\n" : "") << R"({"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": )" << i
                    << R"(, "dur": )" << 2 * n << "}";
            out << "]}";
        }
        ChromeTraceImporter importer;
        const test::ImportedFile r = test::importFile(importer, file);
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(20'000));
        QCOMPARE(test::queryRows(*r.store, "SELECT count(*) FROM import_log"), QStringList({"1"}));
        QCOMPARE(test::queryRows(*r.store, "SELECT severity, code FROM import_log"), QStringList({"warning|overlapping_slices"}));
        QCOMPARE(test::queryRows(*r.store, "SELECT max(depth) FROM slice"),
                 QStringList({QString::number(SliceNester::kMaxOverflowBands + 1)}));
    }
};

QTEST_GUILESS_MAIN(TstSliceNesterStaircase)
#include "tst_slice_nester_staircase.moc"

// The one colour source (models/colors/palette.h): a name has one colour wherever it appears (its
// numbered repeats share it), each step-time category its own, chart series a fixed palette that
// wraps, and a grouped chart's members and its two means (allocated, reserved) three greys apart.

#include "models/colors/palette.h"

#include <QtTest>

#include <set>

using namespace stepscope;

class TstPalette : public QObject {
    Q_OBJECT
private slots:
    void namesKeepTheirColour() {
        QCOMPARE(nameColorForText(u"ProfilerStep#12"), nameColorForText(u"ProfilerStep#13"));
        QCOMPARE(nameColorForText(u"ProfilerStep#12"), nameColorForText(u"ProfilerStep"));
        QVERIFY(nameColorForText(u"ncclAllReduce") != nameColorForText(u"volta_sgemm"));
        QCOMPARE(nameColor(42), nameColor(42));
        QCOMPARE(textColorOn(QColor(Qt::white)), QColor(28, 30, 34));
        QCOMPARE(textColorOn(QColor(Qt::black)), QColor(255, 255, 255));
    }

    void everyCategoryHasItsOwnColour() {
        std::set<QRgb> seen;
        for (int c = 0; c < kCategoryCount; ++c) seen.insert(categoryColor(Category(c)).rgb());
        QCOMPARE(seen.size(), size_t(kCategoryCount));
        QCOMPARE(categoryColor(Category(0)), QColor(0x2e, 0x7d, 0x32));  // device_compute: green
    }

    void seriesPaletteIsTenHuesThatWrap() {
        std::set<QRgb> seen;
        for (size_t i = 0; i < 10; ++i) seen.insert(seriesPaletteColor(i).rgb());
        QCOMPARE(seen.size(), size_t(10));
        QCOMPARE(seriesPaletteColor(10), seriesPaletteColor(0));
        QCOMPARE(seriesPaletteColor(0), QColor(0x1f, 0x77, 0xb4));
    }

    void groupedChartGreysTellApart() {
        const std::set<QRgb> greys = {kMemberGrey, kMeanGrey, kSecondMeanGrey};
        QCOMPARE(greys.size(), size_t(3));
        QCOMPARE(QColor(kMemberGrey).alpha(), 255);  // opaque: the envelope graph's fast path
    }
};

QTEST_GUILESS_MAIN(TstPalette)
#include "tst_palette.moc"

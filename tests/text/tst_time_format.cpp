// formatTime (models/text/time_format.h), the one time formatter of every view: the unit and
// precision come from the reference, so the two ends of a range read alike, and without one the
// value is its own reference (the strings the timeline's panels have always shown).

#include "models/text/time_format.h"

#include <QtTest>

using namespace stepscope;

class TstTimeFormat : public QObject {
    Q_OBJECT
private slots:
    void withoutReferenceTheValueIsItsOwn_data() {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 ns");
        QTest::newRow("ns") << qint64(12) << QStringLiteral("12 ns");
        QTest::newRow("us") << qint64(56700) << QStringLiteral("56.700 µs");
        QTest::newRow("us, 100 and more") << qint64(123456) << QStringLiteral("123.5 µs");
        QTest::newRow("ms") << qint64(1234000) << QStringLiteral("1.234 ms");
        QTest::newRow("s") << qint64(3200000000) << QStringLiteral("3.200 s");
        QTest::newRow("s, under 100") << qint64(94400000000) << QStringLiteral("94.400 s");
        QTest::newRow("minutes stay seconds") << qint64(3600000000000) << QStringLiteral("3600.0 s");
        QTest::newRow("negative") << qint64(-2500000) << QStringLiteral("-2.500 ms");
        QTest::newRow("negative ns") << qint64(-999) << QStringLiteral("-999 ns");
        QTest::newRow("largest") << std::numeric_limits<qint64>::max() << QStringLiteral("9223372036.9 s");
        QTest::newRow("smallest") << std::numeric_limits<qint64>::min() << QStringLiteral("-9223372036.9 s");
    }
    void withoutReferenceTheValueIsItsOwn() {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        QCOMPARE(formatTime(ns), text);
        QCOMPARE(formatTime(ns, -1), text);
    }

    void theReferencePicksUnitAndPrecision_data() {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<qint64>("reference");
        QTest::addColumn<QString>("text");
        // The start of a 94.4 s range beside its end: "0.000 s – 94.400 s", not "0 ns" or "0:00".
        QTest::newRow("range start") << qint64(0) << qint64(94400000000) << QStringLiteral("0.000 s");
        QTest::newRow("range end") << qint64(94400000000) << qint64(94400000000) << QStringLiteral("94.400 s");
        // From 100 units of the reference on, one decimal: a 150 s range.
        QTest::newRow("long range start") << qint64(0) << qint64(150000000000) << QStringLiteral("0.0 s");
        QTest::newRow("long range middle") << qint64(75260000000) << qint64(150000000000) << QStringLiteral("75.3 s");
        // A self time beside its duration, in the duration's unit.
        QTest::newRow("self beside duration") << qint64(500000) << qint64(2000000) << QStringLiteral("0.500 ms");
        QTest::newRow("small value, large reference") << qint64(12) << qint64(5000) << QStringLiteral("0.012 µs");
        QTest::newRow("large value, small reference") << qint64(1500000000) << qint64(999) << QStringLiteral("1500000000 ns");
        QTest::newRow("reference at a unit's edge") << qint64(999999) << qint64(1000000) << QStringLiteral("1.000 ms");
        QTest::newRow("just under the edge") << qint64(999999) << qint64(999999) << QStringLiteral("1000.0 µs");
    }
    void theReferencePicksUnitAndPrecision() {
        QFETCH(qint64, ns);
        QFETCH(qint64, reference);
        QFETCH(QString, text);
        QCOMPARE(formatTime(ns, reference), text);
    }

    void neighboursReadAlike() {
        // Every value of a range, formatted against the range's end, has the end's unit and decimals.
        const qint64 end = 1500000;  // 1.5 ms
        for (qint64 t = 0; t <= end; t += 37000) {
            const QString s = formatTime(t, end);
            QVERIFY2(s.endsWith(QStringLiteral(" ms")), qPrintable(s));
            QCOMPARE(s.section(QLatin1Char('.'), 1).section(QLatin1Char(' '), 0, 0).size(), 3);
        }
    }
};

QTEST_GUILESS_MAIN(TstTimeFormat)
#include "tst_time_format.moc"

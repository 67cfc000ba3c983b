// TimeAxisTicker's labels: clock-like at every zoom, and never the same text for two neighbouring
// ticks (a week-long series zoomed to seconds used to repeat "2 d 23:59").
#include "views/utilization/time_axis_ticker.h"

#include <QtTest>

using namespace stepscope;

class TstTimeAxisTicker : public QObject {
    Q_OBJECT
private slots:
    void labels_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("step");
        QTest::addColumn<QString>("label");
        QTest::newRow("seconds") << 75.0 << 15.0 << "1:15";
        QTest::newRow("hour") << 3600.0 * 2 << 1800.0 << "2:00 h";
        QTest::newRow("hour with seconds") << 3600.0 + 62 << 2.0 << "1:01:02";
        QTest::newRow("day") << 86400.0 * 3 << 86400.0 << "3 d";
        QTest::newRow("day and hour") << 86400.0 * 2 + 3600 * 23 + 59 * 60 << 300.0 << "2 d 23:59";
        QTest::newRow("day to the second") << 86400.0 * 2 + 3600 * 23 + 59 * 60 + 30 << 10.0 << "2 d 23:59:30";
        QTest::newRow("day, sub-second") << 86400.0 * 2 + 3600 * 23 + 59 * 60 + 30.25 << 0.05 << "2 d 23:59:30.25";
        QTest::newRow("sub-second") << 12.25 << 0.25 << "12.25 s";
        QTest::newRow("minutes, sub-second") << 125.5 << 0.5 << "2:05.5";
        QTest::newRow("hours, sub-second") << 3600.0 * 5 + 7.5 << 0.5 << "5:00:07.5";
        QTest::newRow("rounds up across a minute") << 59.99996 << 0.001 << "1:00.000";
        QTest::newRow("negative") << -30.0 << 10.0 << "-0:30";
    }
    void labels() {
        QFETCH(double, seconds);
        QFETCH(double, step);
        QFETCH(QString, label);
        QCOMPARE(TimeAxisTicker::label(seconds, step), label);
    }

    void neighboursDiffer() {
        // Ticks at every zoom of a week: consecutive labels are never equal.
        for (double step : {0.001, 0.01, 0.1, 1.0, 5.0, 30.0, 60.0, 600.0, 3600.0, 86400.0})
            for (double start : {0.0, 59.0, 3599.0, 86400.0 * 2 + 86399.0 - 3 * step, 86400.0 * 6.5}) {
                QString previous;
                for (int k = 0; k < 8; ++k) {
                    const QString l = TimeAxisTicker::label(std::floor(start / step) * step + k * step, step);
                    QVERIFY2(l != previous, qPrintable(QString("step %1 start %2: %3 twice").arg(step).arg(start).arg(l)));
                    previous = l;
                }
            }
    }
};

QTEST_GUILESS_MAIN(TstTimeAxisTicker)
#include "tst_time_axis_ticker.moc"

// #35 item 7 (the rest): the Utilization header kept the previous session's range when the next
// session had no instance metrics (or while they loaded, or after the session closed), and the
// selection's statistics stayed after zooming elsewhere. The header says the open session's range
// or nothing; the statistics are put away while the selection is wholly out of view (the selection
// itself stays: it is every view's) and come back with it, saying when it is partly outside.
#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "app/synth/synthetic_profile_generator.h"
#include "tests/test_support.h"
#include "views/utilization/range_stats_table.h"
#include "views/utilization/utilization_view.h"

#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace stepscope;
using test::copyDemo, test::demoDir, test::kDemoFiles;

namespace {
// A trace with no instance metrics at all (no device properties either): a few host events.
bool writeBareTrace(const QString &to) {
    QFile f(to + "/bare.json");
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(R"({"traceEvents": [
        {"ph": "X", "name": "step 1", "cat": "user_annotation", "ts": 1000, "dur": 5000, "pid": 1, "tid": 1},
        {"ph": "X", "name": "aten::mm", "cat": "cpu_op", "ts": 1500, "dur": 2000, "pid": 1, "tid": 1},
        {"ph": "X", "name": "step 2", "cat": "user_annotation", "ts": 7000, "dur": 5000, "pid": 1, "tid": 1}]})");
    return true;
}

bool openAndWait(gui::MainWindow &w, const QString &path) {
    QSignalSpy done(&w, &gui::MainWindow::importFinished);
    w.openPaths({path});
    return done.wait(120000) && done.first().first().toBool();
}

QString header(gui::MainWindow &w) {
    QCoreApplication::processEvents();
    return w.viewWidget(QStringLiteral("utilization"))->findChild<QLabel *>(QStringLiteral("utilizationHeader"))->text();
}
} // namespace

class TestGuiUtilizationSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        test::isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        QVERIFY2(QFileInfo::exists(demoDir()), "demo profile not generated (target stepscope_demo_profile)");
    }

    void headerShowsTheOpenSessionsRange() {
        QTemporaryDir a, b, c;
        QVERIFY(copyDemo(a.path()) && writeBareTrace(b.path()));
        // C: another run, recorded on another day, shorter.
        synth::SyntheticProfileOptions o;
        o.steps = 12;
        o.epochStartNs = int64_t(1'772'366'400) * 1'000'000'000;  // 2026-03-01 12:00:00 UTC
        synth::SyntheticProfileGenerator(o).generate((c.path() + "/run.pt.trace.json.gz").toStdString(),
                                                     (c.path() + kDemoFiles[0]).toStdString());
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();

        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        const QString fullA = header(w);
        QVERIFY2(fullA.startsWith(QStringLiteral("Showing 0")) && fullA.contains(QStringLiteral("2026-01-15")), qPrintable(fullA));
        const NsRange full = w.timeRange()->fullRange();
        w.timeRange()->setRange({full.start + full.duration() / 3, full.start + full.duration() / 2});
        const QString zoomedA = header(w);
        QVERIFY2(zoomedA != fullA && !zoomedA.startsWith(QStringLiteral("Showing 0")), qPrintable(zoomedA));

        // B has no instance metrics: nothing charted, nothing said (it kept A's range).
        QVERIFY2(openAndWait(w, b.path()), qPrintable(w.lastError()));
        QVERIFY(static_cast<UtilizationView *>(w.viewWidget(QStringLiteral("utilization")))->panels().empty());
        QCOMPARE(header(w), QString());

        // C: its own range from its own start.
        QVERIFY2(openAndWait(w, c.path()), qPrintable(w.lastError()));
        const QString fullC = header(w);
        QVERIFY2(fullC.startsWith(QStringLiteral("Showing 0")) && fullC.contains(QStringLiteral("2026-03-01")) &&
                     !fullC.contains(QStringLiteral("2026-01-15")) && fullC != fullA,
                 qPrintable(fullC));

        // Closed: nothing.
        w.session()->close();
        QCOMPARE(header(w), QString());
    }

    void selectionStatisticsFollowTheView() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        QWidget *view = w.viewWidget(QStringLiteral("utilization"));
        auto *table = view->findChild<RangeStatsTable *>();
        QVERIFY(table);
        const NsRange full = w.timeRange()->fullRange();
        const int64_t d = full.duration();
        const NsRange selection{full.start + d / 5, full.start + 3 * d / 10};
        w.timeRange()->setSelection(selection);
        QVERIFY(table->isVisibleTo(view));
        const int rows = table->table()->rowCount();
        QVERIFY(rows > 0);
        QVERIFY2(!table->title().contains(QStringLiteral("partly")), qPrintable(table->title()));

        // Zoomed elsewhere: the statistics go, the selection stays (the timeline and the Range tab keep it).
        w.timeRange()->setRange({full.start + 3 * d / 5, full.start + 4 * d / 5});
        QVERIFY(!table->isVisibleTo(view));
        QCOMPARE(w.timeRange()->selection(), selection);
        // Panned so that part of it shows: back, and saying so.
        w.timeRange()->setRange({full.start + d / 4, full.start + d / 2});
        QVERIFY(table->isVisibleTo(view));
        QCOMPARE(table->table()->rowCount(), rows);
        QVERIFY2(table->title().contains(QStringLiteral("partly outside the view")), qPrintable(table->title()));
        // All of it in view again.
        w.timeRange()->zoomToFull();
        QVERIFY(table->isVisibleTo(view));
        QVERIFY2(!table->title().contains(QStringLiteral("partly")), qPrintable(table->title()));
        // A selection made elsewhere (the timeline) wholly out of view: no statistics until it is shown.
        w.timeRange()->setRange({full.start, full.start + d / 10});
        w.timeRange()->setSelection({full.start + d / 2, full.start + 6 * d / 10});
        QVERIFY(!table->isVisibleTo(view));
        w.timeRange()->zoomToSelection();
        QVERIFY(table->isVisibleTo(view));
        w.timeRange()->clearSelection();
        QVERIFY(!table->isVisibleTo(view));
    }
};

QTEST_MAIN(TestGuiUtilizationSession)
#include "tst_gui_utilization_session.moc"

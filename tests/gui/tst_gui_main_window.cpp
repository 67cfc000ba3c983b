// GUI smoke test (offscreen): the main window opens the bundled demo through the worker-thread
// import, shows it in its views, cancels cleanly, reports errors naming the file, remembers its
// layout, and is saved to PNG for a person to look at.

#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "app/gui/view_registry.h"
#include "app/synth/xplane_logdir_writer.h"
#include "models/store/session_reader.h"
#include "tests/test_support.h"
#include "views/steps/step_time_view.h"

#include <QApplication>
#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSpinBox>
#include <QToolBar>
#include <QtTest>

using namespace stepscope;
using test::copyDemo, test::demoDir;

namespace {
}

class TestGuiMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        QVERIFY2(QFileInfo::exists(demoDir()), "demo profile not generated (target stepscope_demo_profile)");
    }

    // The window is built from the view table: every view it lists is in the window, in its dock
    // (titled as the table says) or in the centre, export can make a fresh one of each exportable
    // view, and the default layout puts the docks where the table says.
    void windowIsBuiltFromTheViewTable() {
        gui::MainWindow w;
        QStringList exportable;
        for (const gui::ViewEntry &e : gui::viewEntries()) {
            QWidget *view = w.viewWidget(e.name);
            QVERIFY2(view, qPrintable(e.name));
            if (e.placement == gui::DockPlacement::Centre) {
                QVERIFY(w.centralWidget()->isAncestorOf(view));
            } else {
                auto *dock = w.findChild<QDockWidget *>(e.dockName);
                QVERIFY2(dock && dock->isAncestorOf(view), qPrintable(e.name));
                QCOMPARE(dock->windowTitle(), gui::viewTitle(e));
                if (e.placement == gui::DockPlacement::TabWith)
                    QVERIFY2(w.tabifiedDockWidgets(dock).contains(w.findChild<QDockWidget *>(gui::findViewEntry(e.relative)->dockName)),
                             qPrintable(e.name));
            }
            if (e.exportable) {
                exportable << e.name;
                std::unique_ptr<QWidget> fresh(w.createView(e.name));
                QVERIFY2(fresh && fresh.get() != view && fresh->metaObject() == view->metaObject(), qPrintable(e.name));
            } else {
                QVERIFY(!w.createView(e.name));
            }
        }
        QCOMPARE(gui::MainWindow::viewNames(), exportable);
        QVERIFY(!w.viewWidget(QStringLiteral("nonsense")) && !w.createView(QStringLiteral("nonsense")));
        // Findings sit beside the step chart, not in its tabs.
        auto *steps = w.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
        auto *findings = w.findChild<QDockWidget *>(QStringLiteral("findingsDock"));
        QVERIFY(!w.tabifiedDockWidgets(steps).contains(findings));
        QCOMPARE(w.dockWidgetArea(findings), Qt::BottomDockWidgetArea);
        QCOMPARE(w.dockWidgetArea(w.findChild<QDockWidget *>(QStringLiteral("sessionDock"))), Qt::RightDockWidgetArea);
    }

    void opensDemoAndShowsIt() {
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({demoDir()});
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(w.lastError()));
        QVERIFY(w.session()->isOpen());
        SessionReader reader(*w.session()->store());
        QVERIFY(reader.sliceCount() > 1000);
        const auto runs = reader.runs();
        QVERIFY(!runs.empty());
        QCOMPARE(int(reader.steps(runs[0].id).size()), 40);
        auto *steps = qobject_cast<StepTimeView *>(w.viewWidget("steps"));
        QVERIFY(steps);
        QCOMPARE(steps->barCount(), 40);
        QVERIFY(w.timeRange()->fullRange().valid());
        QVERIFY(w.windowTitle().contains("demo"));
        QVERIFY(w.viewWidget("timeline") && w.viewWidget("timeline")->isVisible());
        QApplication::processEvents();
        const QString png = QStringLiteral(STEPSCOPE_BINARY_DIR "/tst_gui_main_window.png");
        QVERIFY(w.grab().save(png));
        QVERIFY(QFileInfo(png).size() > 10000);

        // Zoom to a step from the step chart and back through history.
        const NsRange full = w.timeRange()->range();
        const auto s = reader.steps(runs[0].id)[3];
        w.timeRange()->setRange({s.startNs, s.startNs + s.durNs});
        QVERIFY(w.timeRange()->canGoBack());
        w.timeRange()->back();
        QCOMPARE(w.timeRange()->range(), full);
    }

    // The batch box shows the batch size the analysis detected (issue #35): the findings quote it,
    // the toolbar said "unknown". Setting one keeps the user's zoom.
    void batchBoxShowsTheDetectedValueAndKeepsTheZoom() {
        gui::MainWindow w;
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        // The H200 recording: batch 128, found from aten::conv2d's input shape.
        w.openPaths({QString::fromStdString(test::testData("gpu/baseline.pt.trace.json.gz").string())});
        QVERIFY(done.wait(120000));
        auto *box = w.findChild<QToolBar *>("sessionToolBar")->findChild<QSpinBox *>();
        QVERIFY(box);
        QApplication::processEvents();
        QCOMPARE(box->value(), 0);
        QCOMPARE(box->specialValueText(), QStringLiteral("128 (detected)"));
        QVERIFY2(box->toolTip().contains("Detected: leading dimension"), qPrintable(box->toolTip()));
        const NsRange full = w.timeRange()->fullRange();
        const NsRange zoom{full.start + full.duration() / 4, full.start + full.duration() / 2};
        w.timeRange()->setRange(zoom);
        box->setValue(96);
        emit box->editingFinished();
        QCOMPARE(w.timeRange()->range(), zoom);
        box->setValue(0);  // back to the detected one
        emit box->editingFinished();
        QApplication::processEvents();
        QCOMPARE(box->specialValueText(), QStringLiteral("128 (detected)"));
    }

    void cancelLeavesSessionAsItWas() {
        gui::MainWindow w;
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({demoDir()});  // the session of the previous test, re-used
        QVERIFY(done.wait(120000));
        // A copy of the demo elsewhere is a new import; cancelling it keeps the demo on screen.
        QTemporaryDir copy;
        QVERIFY(copyDemo(copy.path()));
        w.openPaths({copy.path()});
        w.importWorker()->cancel();
        QVERIFY(done.wait(120000));
        QVERIFY2(!done.last().first().toBool(), qPrintable(w.lastStatus() + " / " + w.lastError()));
        QVERIFY(w.session()->isOpen());
        QCOMPARE(w.session()->path(), gui::MainWindow::sessionPathFor({demoDir()}));
        SessionReader reader(*w.session()->store());
        QCOMPARE(int(reader.sources().size()), 2);
    }

    void logdirWithSeveralRunsAsksWhichOne() {
        // Two profile captures in one TensorBoard logdir: the user is asked (newest offered first)
        // and only the run picked is imported.
        QTemporaryDir dir;
        const std::filesystem::path logdir = dir.path().toStdString();
        synth::SyntheticProfileOptions o;
        o.steps = 3;
        const auto older = synth::writeXPlaneLogdir(o, logdir);
        o.epochStartNs += int64_t(3600) * 1000000000;  // an hour later: a newer run folder
        const auto newer = synth::writeXPlaneLogdir(o, logdir);
        gui::MainWindow w;
        QStringList offered;
        w.setRunChooser([&](const QStringList &runs) {
            offered = runs;
            return runs.last();  // pick the older one
        });
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({dir.path()});
        QVERIFY(done.wait(120000));
        QCOMPARE(offered.size(), 2);
        QCOMPARE(offered.first().toStdString(), newer.file.parent_path().filename().string());
        SessionReader reader(*w.session()->store());
        const auto sources = reader.sources();
        QCOMPARE(int(sources.size()), 1);
        QVERIFY2(sources[0].path.find(older.file.parent_path().filename().string()) != std::string::npos, sources[0].path.c_str());
    }

    void missingPathGivesErrorNamingIt() {
        gui::MainWindow w;
        w.openPaths({"/no/such/profile-dir"});
        QVERIFY(w.lastError().contains("/no/such/profile-dir"));
        QVERIFY(!w.session()->isOpen());
    }

    void rememberesWindowLayout() {
        {
            gui::MainWindow w;
            w.resize(1511, 977);
            w.show();
            w.close();
        }
        QVERIFY(!QSettings().value("window/state").toByteArray().isEmpty());
        gui::MainWindow again;
        QCOMPARE(again.size(), QSize(1511, 977));
        QVERIFY(QSettings().value("recentFiles").toStringList().contains(QFileInfo(demoDir()).absoluteFilePath()));
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "tst_gui_main_window.moc"

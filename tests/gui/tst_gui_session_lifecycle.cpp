// Opening one thing after another (offscreen): nothing of the previous session stays on screen;
// cancelling an import returns to the session that was open and says so; opening the same logdir
// again re-uses its session (Recent lists it once) and re-imports only what changed.

#include "app/gui/gui_main.h"
#include "app/gui/import_progress_panel.h"
#include "app/gui/main_window.h"
#include "app/gui/start_page.h"
#include "views/analysis/findings_view.h"
#include "models/store/session_reader.h"
#include "tests/test_support.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"

#include <QApplication>
#include <QDockWidget>
#include <QListWidget>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QtTest>

#include <utime.h>

using namespace stepscope;
using test::copyDemo, test::demoDir, test::kDemoFiles;

namespace {
bool openAndWait(gui::MainWindow &w, const QString &path) {
    QSignalSpy done(&w, &gui::MainWindow::importFinished);
    w.openPaths({path});
    return done.wait(120000) && done.first().first().toBool();
}

QSpinBox *stepBox(gui::MainWindow &w) {
    const auto boxes = w.viewWidget("timeline")->findChildren<QSpinBox *>(Qt::FindDirectChildrenOnly);
    return boxes.size() == 1 ? boxes.first() : nullptr;
}

int64_t sourceCount(gui::MainWindow &w) { return int64_t(SessionReader(*w.session()->store()).sources().size()); }
int64_t sliceCount(gui::MainWindow &w) { return SessionReader(*w.session()->store()).sliceCount(); }
} // namespace

class TestGuiSessionLifecycle : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        test::isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        QVERIFY2(QFileInfo::exists(demoDir()), "demo profile not generated (target stepscope_demo_profile)");
    }

    void openingAnotherSessionResetsWhatWasPicked() {
        QTemporaryDir a, b;
        QVERIFY(copyDemo(a.path()) && copyDemo(b.path()));
        gui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        auto *pane = static_cast<TimelinePaneView *>(w.viewWidget("timeline"));
        auto *details = static_cast<SliceDetailsView *>(w.viewWidget("details"));
        QSpinBox *step = stepBox(w);
        QVERIFY(step);
        // Everything a user picks in A: a slice, a step, a search, a range, a zoom.
        pane->timeline()->selectSlice(1);
        QVERIFY(details->sliceTree()->topLevelItemCount() > 0);
        step->setValue(7);
        pane->searchField()->setText("aten");
        const NsRange full = w.timeRange()->fullRange();
        w.timeRange()->setSelection({full.start + full.duration() / 4, full.start + full.duration() / 2});
        w.timeRange()->setRange({full.start, full.start + full.duration() / 3});
        QVERIFY(w.timeRange()->canGoBack());

        QVERIFY2(openAndWait(w, b.path()), qPrintable(w.lastError()));
        QCOMPARE(w.session()->path(), gui::MainWindow::sessionPathFor({b.path()}));
        QCOMPARE(details->sliceTree()->topLevelItemCount(), 0);
        {  // back to B's first step (steps are numbered from 1 there), not the 7 picked in A
            const SessionReader reader(*w.session()->store());
            const int64_t first = reader.steps(reader.runs().front().id).front().step;
            QVERIFY(first != 7);
            QCOMPARE(int64_t(step->value()), first);
        }
        QVERIFY(pane->searchField()->text().isEmpty());
        QVERIFY(!w.timeRange()->selection().valid());
        QCOMPARE(details->aggregateModel()->rowCount(), 0);
        QVERIFY(!w.timeRange()->canGoBack());
        QCOMPARE(w.timeRange()->range(), w.timeRange()->fullRange());
    }

    void cancelReturnsToTheOpenSession() {
        QTemporaryDir a, b;
        QVERIFY(copyDemo(a.path()) && copyDemo(b.path()));
        QSettings().remove("recentFiles");
        gui::MainWindow w;
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        const QString sessionA = w.session()->path();
        const int64_t slicesA = sliceCount(w);
        // The window names what was opened (the folder), not its internal session file.
        QVERIFY2(w.windowTitle().startsWith(QFileInfo(a.path()).fileName()) && !w.windowTitle().contains(".stepscope"),
                 qPrintable(w.windowTitle()));

        auto *findings = static_cast<FindingsView *>(w.viewWidget("findings"));
        QTRY_VERIFY(findings->bottleneckText().contains("Bottleneck"));
        const QString verdictA = findings->bottleneckText();
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({b.path()});
        QVERIFY(w.progressPanel()->isVisibleTo(&w));
        // While B is imported, A's verdict is not shown as if it were B's (issue #35, item 10).
        QVERIFY2(findings->bottleneckText().contains("Importing " + QFileInfo(b.path()).fileName()), qPrintable(findings->bottleneckText()));
        w.progressPanel()->cancelButton()->click();
        QVERIFY(done.wait(120000));
        QVERIFY(!done.first().first().toBool());
        QVERIFY(!w.progressPanel()->isVisibleTo(&w));
        // A is still open, with everything in it, and the status bar says so.
        QVERIFY(w.session()->isOpen());
        QCOMPARE(w.session()->path(), sessionA);
        QCOMPARE(sliceCount(w), slicesA);
        QTRY_COMPARE(findings->bottleneckText(), verdictA);
        QVERIFY2(w.lastStatus().contains("cancelled") && w.lastStatus().contains(QFileInfo(a.path()).fileName()),
                 qPrintable(w.lastStatus()));
        QVERIFY2(!w.lastStatus().contains("unchanged"), qPrintable(w.lastStatus()));
        // B left nothing behind: no session file, no Recent entry.
        const QString sessionB = gui::MainWindow::sessionPathFor({b.path()});
        for (const char *suffix : {"", "-wal", "-shm"}) QVERIFY2(!QFileInfo::exists(sessionB + suffix), qPrintable(sessionB + suffix));
        QCOMPARE(gui::MainWindow::recentFiles(), QStringList{QFileInfo(a.path()).canonicalFilePath()});
    }

    // A file nothing can be read from (issue #35): the open session stays, with everything in it, and
    // the bad file is neither a session nor a Recent entry.
    void unreadableFileKeepsTheOpenSession() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        QSettings().remove("recentFiles");
        gui::MainWindow w;
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        const QString sessionA = w.session()->path();
        const int64_t slicesA = sliceCount(w);
        const QString junk = a.filePath("random.bin");
        {
            QFile f(junk);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray bytes(4096, '\0');
            for (int i = 0; i < bytes.size(); ++i) bytes[i] = char((i * 7919) % 251);
            f.write(bytes);
        }
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({junk});
        QVERIFY(done.wait(60000));
        QVERIFY(!done.first().first().toBool());
        QCOMPARE(w.session()->path(), sessionA);
        QCOMPARE(sliceCount(w), slicesA);
        QVERIFY2(w.lastStatus().contains("Nothing could be read") && w.lastStatus().contains("is still open"),
                 qPrintable(w.lastStatus()));
        QVERIFY(!QFileInfo::exists(gui::MainWindow::sessionPathFor({junk})));
        QCOMPARE(gui::MainWindow::recentFiles(), QStringList{QFileInfo(a.path()).canonicalFilePath()});
    }

    // Files opened together are one Recent entry that names them, not the internal session; the
    // sessions live in ~/.local/share/stepscope/sessions; dialogs start where the last one ended.
    void recentNamesWhatWasOpened() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        QSettings().remove("recentFiles");
        gui::MainWindow w;
        const QString csv = QFileInfo(a.path() + kDemoFiles[0]).canonicalFilePath();
        const QString trace = QFileInfo(a.path() + kDemoFiles[1]).canonicalFilePath();
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({trace, csv});
        QVERIFY(done.wait(120000));
        QCOMPARE(gui::MainWindow::recentFiles(), QStringList{trace + "\n" + csv});
        QCOMPARE(gui::MainWindow::recentLabel(trace + "\n" + csv).section("  (", 0, 0), QStringLiteral("demo.pt.trace.json.gz + nvidia-smi.csv"));
        QVERIFY2(w.session()->path().contains("/stepscope/sessions/") && !w.session()->path().contains("Stepscope/Stepscope"),
                 qPrintable(w.session()->path()));
        gui::MainWindow::rememberFolder(csv);
        QCOMPARE(gui::MainWindow::lastFolder(), QFileInfo(csv).absolutePath());
    }

    // Quitting leaves the session file alone: no -wal or -shm beside it (issue #35).
    void quittingLeavesNoWalBehind() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        QString session;
        {
            gui::MainWindow w;
            QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
            session = w.session()->path();
            QTest::qWait(500);  // the background analysis and level-of-detail work of an open session
        }
        QCoreApplication::processEvents();
        for (const char *suffix : {"-wal", "-shm"}) QVERIFY2(!QFileInfo::exists(session + suffix), qPrintable(session + suffix));
    }

    // First launch (issue #35, item 4): a start page where the timeline will be, with the ways in;
    // Export and Compare are disabled until a session is open; the demo opens from it; the next
    // launch lists it as a recent session with what it holds.
    void firstLaunchShowsTheStartPage() {
        QSettings().remove("recentFiles");
        gui::MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        gui::StartPage *page = w.startPage();
        QVERIFY(page->isVisible());
        // It lies over the timeline and the docks (no empty axes around it), under the menus.
        QVERIFY(page->geometry().contains(w.centralWidget()->geometry()));
        QVERIFY(page->geometry().contains(w.findChild<QDockWidget *>("stepsDock")->geometry()));
        QVERIFY(!page->recentList()->isVisible());  // nothing opened yet: a sentence says so instead
        QVERIFY(!w.sessionActions().isEmpty());
        for (QAction *a : w.sessionActions()) QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        for (const char *name : {"startOpenFolder", "startOpenFile", "startOpenDemo"})
            QVERIFY2(page->findChild<QPushButton *>(name) && page->findChild<QPushButton *>(name)->isVisible(), name);
        QVERIFY(w.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/tst_gui_session_lifecycle_start.png")));
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        page->findChild<QPushButton *>("startOpenDemo")->click();
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(w.lastError()));
        QVERIFY(!page->isVisible());
        for (QAction *a : w.sessionActions()) QVERIFY2(a->isEnabled(), qPrintable(a->text()));
        QVERIFY(w.session()->path().contains("demo"));

        gui::MainWindow next;
        next.resize(1280, 720);
        next.show();
        QVERIFY(next.startPage()->isVisible());
        QCOMPARE(next.startPage()->recentList()->count(), 1);
        const QString entry = next.startPage()->recentText(0);
        QVERIFY2(entry.contains("demo") && entry.contains("1 run") && entry.contains("MB"), qPrintable(entry));
        QVERIFY(next.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/tst_gui_session_lifecycle_start_recent.png")));
        QSignalSpy reopened(&next, &gui::MainWindow::importFinished);
        QListWidget *list = next.startPage()->recentList();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());  // one click
        QVERIFY(reopened.wait(120000));
        QCOMPARE(next.session()->path(), w.session()->path());
        QVERIFY(!next.startPage()->isVisible());
    }

    void cancelWithNothingOpenShowsTheStartPage() {
        QTemporaryDir b;
        QVERIFY(copyDemo(b.path()));
        gui::MainWindow w;
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({b.path()});
        w.importWorker()->cancel();
        QVERIFY(done.wait(120000));
        QVERIFY(!w.session()->isOpen());
        QVERIFY(w.startPage()->isVisibleTo(&w));
        QVERIFY2(w.lastStatus().contains("no session is open"), qPrintable(w.lastStatus()));
        QVERIFY(!QFileInfo::exists(gui::MainWindow::sessionPathFor({b.path()})));
    }

    void reopeningALogdirReusesItsSession() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        QSettings().remove("recentFiles");
        gui::MainWindow w;
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        const int64_t sources = sourceCount(w), slices = sliceCount(w);
        QCOMPARE(sources, 2);
        const QDateTime written = QFileInfo(w.session()->path()).lastModified();

        // The same folder, spelled differently: same session, nothing imported, Recent once.
        QVERIFY2(openAndWait(w, a.path() + "/plugins/.."), qPrintable(w.lastError()));
        QVERIFY2(w.lastStatus().contains("nothing was re-imported"), qPrintable(w.lastStatus()));
        QCOMPARE(w.session()->path(), gui::MainWindow::sessionPathFor({a.path()}));
        QCOMPARE(sourceCount(w), sources);
        QCOMPARE(sliceCount(w), slices);
        QCOMPARE(QFileInfo(w.session()->path()).lastModified(), written);
        QCOMPARE(gui::MainWindow::recentFiles(), QStringList{QFileInfo(a.path()).canonicalFilePath()});

        // A file touched (newer mtime): that one file is read again, its rows replaced, not doubled.
        const QByteArray csv = QFile::encodeName(a.path() + kDemoFiles[0]);
        struct utimbuf later {time(nullptr) + 60, time(nullptr) + 60};
        QCOMPARE(utime(csv.constData(), &later), 0);
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        QVERIFY2(w.lastStatus().contains("Re-imported 1 changed file"), qPrintable(w.lastStatus()));
        QCOMPARE(sourceCount(w), sources);
        QCOMPARE(sliceCount(w), slices);
        QCOMPARE(gui::MainWindow::recentFiles().size(), 1);

        // A file gone: its rows cannot stay, the session is rebuilt from what is there.
        QVERIFY(QFile::remove(a.path() + kDemoFiles[0]));
        QVERIFY2(openAndWait(w, a.path()), qPrintable(w.lastError()));
        QCOMPARE(sourceCount(w), sources - 1);
        QCOMPARE(sliceCount(w), slices);
        QVERIFY(!QFileInfo::exists(w.session()->path() + ".fresh"));
    }

    void progressPanelSaysHowFarAndHowFast() {
        gui::MainWindow w;
        w.resize(1024, 700);
        w.show();
        gui::ImportProgressPanel *panel = w.progressPanel();
        panel->begin("logdir");
        QTest::qWait(300);  // the rate needs some elapsed time; no timing is asserted
        panel->update(50'000'000, 100'000'000, "/data/run7/plugins/profile/2026_01_15/host-with-a-long-name.pt.trace.json.gz", 2'000'000);
        QCOMPARE(panel->percent(), 50);
        QVERIFY2(panel->detailText().contains("events/s") && panel->detailText().contains("left"), qPrintable(panel->detailText()));
        QVERIFY2(panel->fileText().endsWith(".json.gz"), qPrintable(panel->fileText()));
        QVERIFY(!panel->finishing());
        QApplication::processEvents();
        QVERIFY(w.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/tst_gui_session_lifecycle_progress.png")));
        // Every byte read: the session is being finished, a busy bar instead of a 100 % that stays
        // for seconds (issue #35, item 10); the next import starts from an empty bar.
        panel->update(100'000'000, 100'000'000, "/data/run7/last.pt.trace.json.gz", 4'000'000);
        QVERIFY(panel->finishing());
        QVERIFY2(panel->detailText().contains("finishing"), qPrintable(panel->detailText()));
        panel->end();
        panel->begin("logdir");
        QVERIFY(!panel->finishing());
        QCOMPARE(panel->percent(), 0);
        panel->end();
    }
};

QTEST_MAIN(TestGuiSessionLifecycle)
#include "tst_gui_session_lifecycle.moc"

// The first picture of a big import (offscreen): the timeline shows the first events of the trace
// while the rest is imported, read-only, the analysis views say they wait for the import; when it
// completes the whole session replaces the picture (the user's zoom kept) and the picture's file is
// gone; a cancel meanwhile returns to what was open before. Small inputs get no picture.

#include "app/gui/gui_main.h"
#include "app/gui/import_progress_panel.h"
#include "app/gui/main_window.h"
#include "models/analysis/service/analysis_model.h"
#include "models/store/session_reader.h"
#include "tests/test_support.h"

#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stepscope;
using test::copyDemo, test::demoDir, test::kDemoFiles;

namespace {
constexpr qint64 kPictureEvents = 3000;

int64_t sliceCount(gui::MainWindow &w) { return SessionReader(*w.session()->store()).sliceCount(); }

bool previewFilesGone(const QString &session) {
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        if (QFileInfo::exists(gui::previewPathFor(session) + suffix)) return false;
    return true;
}
} // namespace

class TestGuiFirstPicture : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(); }

    void showsTheFirstEventsThenTheWholeImport() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        gui::MainWindow w;
        w.setPreviewThreshold(1, kPictureEvents);
        // What the window shows with the picture on screen, taken in the signal (the import goes on).
        struct Seen {
            QString path, note, analysisError;
            bool preview = false, readOnly = false, panelShown = false, analysed = true;
            int64_t slices = 0;
            RunRow run;
        } seen;
        NsRange zoom;
        connect(&w, &gui::MainWindow::previewShown, this, [&] {
            seen.path = w.session()->path();
            seen.preview = w.session()->isPreview();
            seen.readOnly = w.session()->store()->mode() == SessionStore::Mode::ReadOnly;
            seen.slices = sliceCount(w);
            seen.panelShown = w.progressPanel()->isVisibleTo(&w);
            seen.note = w.progressPanel()->noteText();
            AnalysisModel *analysis = AnalysisModel::of(w.session());
            const std::vector<RunRow> runs = analysis->runs();
            if (!runs.empty()) {
                seen.run = runs.front();
                seen.analysed = analysis->analysisOrStart(runs.front().id) != nullptr;
                seen.analysisError = analysis->error();
            }
            // The user zooms into the picture meanwhile.
            const NsRange full = w.timeRange()->fullRange();
            zoom = {full.start + (full.end - full.start) / 4, full.start + (full.end - full.start) / 2};
            w.timeRange()->setRange(zoom);
        });
        QSignalSpy shown(&w, &gui::MainWindow::previewShown);
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({a.path()});

        // The picture: the first events only, read-only, while the progress panel still runs.
        const QString session = gui::MainWindow::sessionPathFor({a.path()});
        QVERIFY(shown.wait(60000) || shown.count() == 1);
        QCOMPARE(seen.path, gui::previewPathFor(session));
        QVERIFY(seen.preview && seen.readOnly && seen.panelShown);
        QVERIFY2(seen.slices > 0 && seen.slices <= kPictureEvents, qPrintable(QString::number(seen.slices)));
        QVERIFY2(seen.note.contains("first"), qPrintable(seen.note));
        // No verdict about a part of the run: the analysis says it waits for the import.
        QVERIFY(seen.run.id > 0 && !seen.analysed);
        QVERIFY2(seen.analysisError.contains("Importing"), qPrintable(seen.analysisError));
        const int64_t pictured = seen.slices;

        QVERIFY(done.count() == 1 || done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(w.lastError()));
        QCOMPARE(w.session()->path(), session);
        QVERIFY(!w.session()->isPreview());
        QCOMPARE(w.session()->store()->mode(), SessionStore::Mode::ReadWrite);
        QVERIFY(sliceCount(w) > pictured);
        QVERIFY(AnalysisModel::of(w.session())->analyseNow(seen.run.id) != nullptr);
        QCOMPARE(w.timeRange()->range(), zoom);  // the same time base: the zoom stays where it was
        QVERIFY(previewFilesGone(session));
        QCOMPARE(gui::MainWindow::recentFiles().value(0), QFileInfo(a.path()).canonicalFilePath());
    }

    void cancelDuringThePictureReturnsToTheOpenSession() {
        QTemporaryDir a, b;
        QVERIFY(copyDemo(a.path()) && copyDemo(b.path()));
        gui::MainWindow w;
        {
            QSignalSpy done(&w, &gui::MainWindow::importFinished);
            w.openPaths({a.path()});
            QVERIFY(done.wait(120000));
        }
        const QString sessionA = w.session()->path();
        const int64_t slicesA = sliceCount(w);

        w.setPreviewThreshold(1, kPictureEvents);
        QSignalSpy shown(&w, &gui::MainWindow::previewShown);
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        // Cancel as soon as the picture is on screen (the import proper has just begun).
        connect(&w, &gui::MainWindow::previewShown, w.progressPanel()->cancelButton(), &QPushButton::click);
        w.openPaths({b.path()});
        QVERIFY(shown.wait(60000) || shown.count() == 1);
        QVERIFY(done.count() == 1 || done.wait(120000));
        QVERIFY(!done.first().first().toBool());
        QCOMPARE(w.session()->path(), sessionA);
        QVERIFY(!w.session()->isPreview());
        QCOMPARE(sliceCount(w), slicesA);
        QVERIFY2(w.lastStatus().contains("cancelled"), qPrintable(w.lastStatus()));
        const QString sessionB = gui::MainWindow::sessionPathFor({b.path()});
        QVERIFY(!QFileInfo::exists(sessionB));
        QVERIFY(previewFilesGone(sessionB));
    }

    void cancelWithNothingElseOpenClosesThePicture() {
        QTemporaryDir b;
        QVERIFY(copyDemo(b.path()));
        gui::MainWindow w;
        w.setPreviewThreshold(1, kPictureEvents);
        QSignalSpy shown(&w, &gui::MainWindow::previewShown);
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        connect(&w, &gui::MainWindow::previewShown, w.importWorker(), &gui::ImportWorker::cancel);
        w.openPaths({b.path()});
        QVERIFY(shown.wait(60000) || shown.count() == 1);
        QVERIFY(done.count() == 1 || done.wait(120000));
        QVERIFY(!w.session()->isOpen());
        QVERIFY2(w.lastStatus().contains("no session is open"), qPrintable(w.lastStatus()));
        QVERIFY(previewFilesGone(gui::MainWindow::sessionPathFor({b.path()})));
    }

    void noPictureWithoutTraceEvents() {
        // Metrics alone (as when the traces are of formats that are read whole): nothing to picture.
        QTemporaryDir a;
        QVERIFY(QFile::copy(demoDir() + kDemoFiles[0], a.path() + kDemoFiles[0]));
        gui::MainWindow w;
        w.setPreviewThreshold(1, kPictureEvents);
        QSignalSpy shown(&w, &gui::MainWindow::previewShown);
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({a.path()});
        QVERIFY(done.wait(120000));
        QCOMPARE(shown.count(), 0);
        QVERIFY(w.session()->isOpen() && !w.session()->isPreview());
        QVERIFY(previewFilesGone(w.session()->path()));
    }

    void smallInputsGetNoPicture() {
        QTemporaryDir a;
        QVERIFY(copyDemo(a.path()));
        gui::MainWindow w;  // the default threshold: the demo is far below it
        QSignalSpy shown(&w, &gui::MainWindow::previewShown);
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({a.path()});
        QVERIFY(done.wait(120000));
        QCOMPARE(shown.count(), 0);
        QVERIFY(previewFilesGone(w.session()->path()));
    }
};

QTEST_MAIN(TestGuiFirstPicture)
#include "tst_gui_first_picture.moc"

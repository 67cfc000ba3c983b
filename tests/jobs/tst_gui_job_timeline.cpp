// The Job dock and the timeline together (issue #15), in a MainWindow over a synthetic 6-rank job
// whose rank 4 is late on its input: a click on a heatmap cell brings that rank's run to the top of
// the timeline at that step; the ranks aligned at a step (from the dock, a click on a step number
// under the heatmap, or R on the timeline) start that step at the same x, and leaving the mode
// restores the recorded times; the mode is remembered in QSettings; the session file is never
// written by any of it. Rendered to job_timeline_aligned.png in the build folder for inspection.

#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "models/analysis/service/analysis_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/jobs/job_test_support.h"
#include "tests/test_support.h"
#include "views/job/job_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"

#include <QCheckBox>
#include <QCryptographicHash>
#include <QDockWidget>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QComboBox>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;
using namespace stepscope::test;

namespace {
// What "the session file was not written" is checked against: its bytes and its time stamp.
struct FileState {
    QByteArray hash;
    QDateTime modified;
    bool operator==(const FileState &) const = default;
};
FileState stateOf(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return {QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256), QFileInfo(path).lastModified()};
}

// The recorded start of aligned step `column` of ranks-table row `row`.
int64_t stepStart(const JobView &view, AnalysisModel *analysis, int64_t runId, size_t row, size_t column) {
    return analysis->analyseNow(runId)->steps.steps[view.job()->stepIndex[row][column]].start;
}
} // namespace

class TestGuiJobTimeline : public QObject {
    Q_OBJECT
    SyntheticJob m_job;
    QTemporaryDir m_dir;
    QString m_file;

    struct Opened {
        std::unique_ptr<gui::MainWindow> window;
        JobView *job = nullptr;
        TimelineView *timeline = nullptr;
        std::vector<int64_t> runIds;  // per ranks-table row
    };
    Opened open() {
        Opened o;
        o.window = std::make_unique<gui::MainWindow>();
        o.window->resize(1400, 900);
        o.window->show();
        o.window->openSession(m_file, false);
        o.job = qobject_cast<JobView *>(o.window->viewWidget("job"));
        o.timeline = qobject_cast<TimelinePaneView *>(o.window->viewWidget("timeline"))->timeline();
        if (!o.job || !o.timeline) return o;
        if (!QTest::qWaitFor([&] { return o.job->job().has_value(); }, 60000)) return o;
        if (!o.job->job()) return o;
        // JobRankRow::runIndex counts the ranked runs in the reader's order.
        std::vector<int64_t> ranked;
        for (const RunRow &run : SessionReader(*o.window->session()->store()).runs())
            if (run.rank) ranked.push_back(run.id);
        for (const JobRankRow &r : o.job->job()->ranksTable) o.runIds.push_back(ranked[r.runIndex]);
        o.window->findChild<QDockWidget *>("jobDock")->raise();
        QCoreApplication::processEvents();
        return o;
    }

private slots:
    void initTestCase() {
        isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        writeJob(m_job, jobOptions(6, 4, synth::LateCause::Input, 30, 10, 60));
        m_file = m_dir.filePath("job.stepscope");
        SessionStore store(m_file.toStdString());
        std::ostringstream out, err;
        cli::importInto(store, {m_job.path()}, {out, err, false});
    }

    void cellClickShowsThatRankAtThatStep() {
        Opened o = open();
        QVERIFY(o.job && o.job->job());
        QCOMPARE(int(o.runIds.size()), 6);
        const FileState before = stateOf(m_file);
        TimelineView *tl = o.timeline;
        tl->setCompactRanks(false);  // every track of every rank (compact, they would all fit one screen)
        // The last rank's tracks start far below the first screen of tracks.
        const size_t row = 5, column = 6;
        QVERIFY(o.job->showCell(int(row), int(column)));
        QCoreApplication::processEvents();
        const int group = tl->model()->runGroup(o.runIds[row]);
        QVERIFY(group >= 0);
        QCOMPARE(tl->highlightedRunGroup(), group);
        QVERIFY(tl->scrollY() > 0);
        // The step chart and the findings follow that rank.
        for (const char *view : {"steps", "findings"}) {
            auto *box = o.window->viewWidget(view)->findChild<QComboBox *>();
            QVERIFY(box);
            QCOMPARE(box->currentData().toLongLong(), qint64(o.runIds[row]));
        }
        // Its first track is among the visible rows.
        const auto &rows = tl->layout().rows();
        auto header = std::find_if(rows.begin(), rows.end(), [&](const TimelineRow &r) {
            return r.kind == TimelineRow::Kind::RunHeader && r.index == group; });
        QVERIFY(header != rows.end());
        auto first = std::find_if(header, rows.end(), [](const TimelineRow &r) { return r.kind == TimelineRow::Kind::Track; });
        QVERIFY(first != rows.end());
        QCOMPARE(tl->model()->tracks()[size_t(first->index)].runId, o.runIds[row]);
        const int visible = tl->height() - TimelinePainter::kHeaderHeight;
        QVERIFY2(first->y >= tl->scrollY() && first->y + first->height <= tl->scrollY() + visible,
                 qPrintable(QStringLiteral("track row at %1..%2, view %3..%4").arg(first->y).arg(first->y + first->height)
                                .arg(tl->scrollY()).arg(tl->scrollY() + visible)));
        // The visible time covers that step of that rank.
        const AnalysisStep &s = AnalysisModel::of(o.window->session())->analyseNow(o.runIds[row])->steps.steps[o.job->job()->stepIndex[row][column]];
        const NsRange r = tl->timeController()->range();
        QVERIFY(r.start <= s.start && r.end >= s.end);
        QVERIFY(r.duration() < 2 * (s.end - s.start));  // zoomed to it, not the whole session
        QCOMPARE(stateOf(m_file), before);
        tl->setCompactRanks(true);  // the default again, for the next tests
    }

    void alignedRanksStartTheStepAtOneX() {
        Opened o = open();
        QVERIFY(o.job && o.job->job());
        TimelineView *tl = o.timeline;
        AnalysisModel *analysis = AnalysisModel::of(o.window->session());
        const FileState before = stateOf(m_file);
        const size_t column = 4;
        const int64_t step = o.job->job()->alignedSteps[column];
        // As recorded: the ranks start that step at different times (the straggler's input is late).
        const std::vector<TimelineStep> recordedSteps = tl->model()->steps();
        const NsRange probe{stepStart(*o.job, analysis, o.runIds[2], 2, column) - 1'000'000,
                            stepStart(*o.job, analysis, o.runIds[2], 2, column) + 20'000'000};
        const int rank2Track = [&] {
            for (size_t i = 0; i < tl->model()->tracks().size(); ++i)
                if (tl->model()->tracks()[i].runId == o.runIds[2] && !tl->model()->tracks()[i].isValueTrack()) return int(i);
            return -1;
        }();
        QVERIFY(rank2Track >= 0);
        tl->model()->setBackgroundLoading(false);
        std::vector<TimelineItem> recordedItems;
        tl->model()->fetch(rank2Track, probe, 1000, recordedItems);
        QVERIFY(!recordedItems.empty());

        // Choosing the step in the Job dock enters the mode.
        o.job->alignStepBox()->setCurrentIndex(int(column));
        o.job->alignBox()->setChecked(true);
        QCoreApplication::processEvents();
        QCOMPARE(tl->alignedStep(), std::optional<int64_t>(step));
        QVERIFY(QSettings().value("timeline/alignRanks").toBool());
        auto *alignButton = o.window->findChild<QToolButton *>("alignRanks");
        QVERIFY(alignButton && alignButton->isVisible() && alignButton->isChecked());
        const double x0 = tl->xOf(tl->alignedStartNs());
        QVERIFY(tl->timeController()->range().start < tl->alignedStartNs() && tl->alignedStartNs() < tl->timeController()->range().end);
        bool someMoved = false;
        for (size_t r = 0; r < o.runIds.size(); ++r) {
            const int64_t recorded = stepStart(*o.job, analysis, o.runIds[r], r, column);
            const int64_t shown = recorded + tl->model()->runOffset(o.runIds[r]);
            QVERIFY2(std::abs(tl->xOf(shown) - x0) <= 1.0, qPrintable(QStringLiteral("rank row %1").arg(r)));
            someMoved = someMoved || tl->model()->runOffset(o.runIds[r]) != 0;
            // The step band says so too: the run's step starts there on the display axis.
            const bool inBand = std::any_of(tl->model()->steps().begin(), tl->model()->steps().end(), [&](const TimelineStep &s) {
                return s.runId == o.runIds[r] && s.step == step && std::abs(tl->xOf(s.startNs) - x0) <= 1.0; });
            QVERIFY(inBand);
        }
        QVERIFY(someMoved);
        // The slices are shifted at query time, not copied: the same items, moved by the run's offset.
        const int64_t offset2 = tl->model()->runOffset(o.runIds[2]);
        std::vector<TimelineItem> shownItems;
        tl->model()->fetch(rank2Track, {probe.start + offset2, probe.end + offset2}, 1000, shownItems);
        QCOMPARE(shownItems.size(), recordedItems.size());
        for (size_t i = 0; i < shownItems.size(); ++i) QCOMPARE(shownItems[i].startNs - offset2, recordedItems[i].startNs);
        QVERIFY(tl->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_timeline_aligned.png")));

        // Leaving it restores the recorded times.
        o.job->alignBox()->setChecked(false);
        QCoreApplication::processEvents();
        QVERIFY(!tl->alignedStep());
        QVERIFY(!alignButton->isChecked());
        QVERIFY(!QSettings().value("timeline/alignRanks").toBool());
        for (int64_t id : o.runIds) QCOMPARE(tl->model()->runOffset(id), int64_t(0));
        QCOMPARE(tl->model()->steps().size(), recordedSteps.size());
        for (size_t i = 0; i < recordedSteps.size(); ++i) {
            QCOMPARE(tl->model()->steps()[i].startNs, recordedSteps[i].startNs);
            QCOMPARE(tl->model()->steps()[i].runId, recordedSteps[i].runId);
        }
        std::vector<TimelineItem> again;
        tl->model()->fetch(rank2Track, probe, 1000, again);
        QCOMPARE(again.size(), recordedItems.size());
        for (size_t i = 0; i < again.size(); ++i) QCOMPARE(again[i].startNs, recordedItems[i].startNs);
        QCOMPARE(stateOf(m_file), before);
    }

    void stepNumberClickAndKeyToggleAndRemembered() {
        FileState before;
        {
            Opened o = open();
            QVERIFY(o.job && o.job->job());
            before = stateOf(m_file);
            QCustomPlot *map = o.job->heatmap();
            QTRY_VERIFY(map->isVisible() && map->width() > 100);
            map->replot();
            // A click on the step number under column 2 aligns the ranks there.
            const QPoint at(int(map->xAxis->coordToPixel(2)), map->axisRect()->rect().bottom() + 8);
            QCOMPARE(o.job->columnHeaderAt(at), 2);
            QTest::mouseClick(map, Qt::LeftButton, {}, at);
            QCOMPARE(o.timeline->alignedStep(), std::optional<int64_t>(o.job->job()->alignedSteps[2]));
            QVERIFY(o.job->alignBox()->isChecked());
            QCOMPARE(o.job->alignStepBox()->currentIndex(), 2);
        }
        {
            // Remembered: the next window over a job opens aligned at that step.
            Opened o = open();
            QVERIFY(o.job && o.job->job());
            QCOMPARE(o.timeline->alignedStep(), std::optional<int64_t>(o.job->job()->alignedSteps[2]));
            QVERIFY(o.job->alignBox()->isChecked());
            // R on the timeline leaves the mode, and enters it again at the step under the view's centre.
            o.timeline->setFocus();
            QTest::keyClick(o.timeline, Qt::Key_R);
            QVERIFY(!o.timeline->alignedStep());
            QVERIFY(!o.job->alignBox()->isChecked());
            QTest::keyClick(o.timeline, Qt::Key_R);
            QVERIFY(o.timeline->alignedStep().has_value());
            QVERIFY(o.job->alignBox()->isChecked());
            QTest::keyClick(o.timeline, Qt::Key_R);
            QVERIFY(!o.timeline->alignedStep());
            // The timeline's own bar: "Align ranks" at the step in its step box.
            const int64_t step = o.job->job()->alignedSteps[3];
            o.window->findChild<QSpinBox *>("stepBox")->setValue(int(step));
            auto *button = o.window->findChild<QToolButton *>("alignRanks");
            QVERIFY(button && button->isVisible() && !button->isChecked());
            button->click();
            QCOMPARE(o.timeline->alignedStep(), std::optional<int64_t>(step));
            QVERIFY(button->isChecked() && o.job->alignBox()->isChecked());
            QCOMPARE(o.job->alignStepBox()->currentIndex(), 3);
            button->click();
            QVERIFY(!o.timeline->alignedStep() && !o.job->alignBox()->isChecked());
        }
        QCOMPARE(stateOf(m_file), before);
    }

    void picturesShowRecordedTimes() {
        // Left aligned in the GUI: command-line pictures (a headless window, a view made for a
        // picture) still show the recorded times and keep the range they were asked for.
        QSettings().setValue("timeline/alignRanks", true);
        QSettings().setValue("timeline/alignStep", 3);
        gui::MainWindow headless(nullptr, gui::MainWindow::Mode::Headless);
        headless.openSession(m_file, false);
        auto *pane = qobject_cast<TimelinePaneView *>(headless.viewWidget("timeline"));
        QVERIFY(pane && !pane->timeline()->alignedStep());
        const NsRange range = headless.timeRange()->range();
        std::unique_ptr<QWidget> picture(headless.createView("timeline"));
        auto *made = qobject_cast<TimelinePaneView *>(picture.get());
        QVERIFY(made && !made->timeline()->alignedStep() && !made->timeline()->model()->hasRunOffsets());
        QCOMPARE(headless.timeRange()->range(), range);
        // The interactive window does bring the mode back, at the remembered step.
        Opened o = open();
        QCOMPARE(o.timeline->alignedStep(), std::optional<int64_t>(3));
        QVERIFY(o.timeline->model()->hasRunOffsets());
        // The timeline's bar says so too.
        QCOMPARE(o.window->findChild<QSpinBox *>("stepBox")->value(), 3);
        QVERIFY(o.window->findChild<QToolButton *>("alignRanks")->isChecked());
        QSettings().setValue("timeline/alignRanks", false);
    }
};

QTEST_MAIN(TestGuiJobTimeline)
#include "tst_gui_job_timeline.moc"

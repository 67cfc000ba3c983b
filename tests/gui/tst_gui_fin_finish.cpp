// Fit and finish of the timeline and its window (issue #18, items 8, 3 and 13):
// - at 1024×700 the timeline keeps at least ~half the window, and a range selection (which fills
//   the Details dock's Range tab) does not shrink it (the docks scroll instead);
// - the track-name column is resizable by dragging its right edge, and the width is remembered;
// - nvidia-smi's constant memory.total is a line on the GPU memory-used track, not a track;
// - clicking a finding with evidence steps zooms to those steps, not to the whole run; each
//   evidence step is listed under it and zooms to that step alone.
// PNGs in the build folder's test-output/ (fin_window_1024x700*.png).

#include "models/qt/session_models.h"
#include "app/gui/gui_main.h"
#include "app/gui/dock_share_keeper.h"
#include "app/gui/main_window.h"
#include "app/synth/step_simulator.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/metrics/metric_series_model.h"
#include "models/store/session_reader.h"
#include "tests/test_support.h"
#include "views/analysis/findings_view.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/value_track_painter.h"
#include "views/utilization/utilization_panels.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QStyle>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>

#include <set>

using namespace stepscope;

class TestGuiFinFinish : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_logdir;

    // A checkpoint-bound run with nvidia-smi metrics (2 GPUs: memory.total on both) and the PyTorch
    // allocator's memory events (profile_memory=True).
    void makeLogdir() {
        const std::filesystem::path dir = m_dir.path().toStdString();
        synth::SyntheticProfileOptions o;
        o.steps = 40;
        o.gpus = 2;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        o.seed = 11;
        o.profileMemory = true;
        std::filesystem::create_directories(dir / "logdir");
        synth::SyntheticProfileGenerator(o).generate(dir / "logdir" / "run.pt.trace.json.gz", dir / "logdir" / "nvidia-smi.csv");
        m_logdir = QString::fromStdString((dir / "logdir").string());
    }

    static bool openIn(gui::MainWindow &w, const QString &logdir) {
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({logdir});
        return done.wait(120000) && done.first().first().toBool();
    }

    static void savePng(QWidget &w, const QString &name) {
        QDir().mkpath(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output"));
        w.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/%1.png").arg(name));
    }

    static void sendMouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
        QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                      buttons, Qt::NoModifier);
        QApplication::sendEvent(w, &e);
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        makeLogdir();
    }

    void timelineKeepsItsShareAt1024x700() {
        gui::MainWindow w;
        w.resize(1024, 700);
        w.show();
        QVERIFY2(openIn(w, m_logdir), qPrintable(w.lastError()));
        QApplication::processEvents();
        QCOMPARE(w.size(), QSize(1024, 700));
        auto *pane = qobject_cast<TimelinePaneView *>(w.viewWidget("timeline"));
        QVERIFY(pane);
        QWidget *timeline = pane->timeline();
        const int before = timeline->height();
        savePng(w, QStringLiteral("fin_window_1024x700"));
        QVERIFY2(before >= 0.45 * w.height(), qPrintable(QStringLiteral("timeline %1 px of %2").arg(before).arg(w.height())));

        // A range selection (what Shift+drag makes) fills the Details dock's Range tab.
        const NsRange full = w.timeRange()->fullRange();
        w.timeRange()->setSelection({full.start + full.duration() / 5, full.start + full.duration() / 2});
        QTest::qWait(600);  // the Range table is filled after a short delay
        QApplication::processEvents();
        savePng(w, QStringLiteral("fin_window_1024x700_selection"));
        // The Range tab's numbers are never cut and its names keep room (a narrow dock showed only
        // colour swatches under "lam", issue #35 walk).
        if (auto *details = w.findChild<SliceDetailsView *>()) {
            QTableView *range = details->rangeTable();
            QTRY_VERIFY(range->model()->rowCount() > 0);
            for (int c = 1; c < range->model()->columnCount(); ++c)
                for (int r = 0; r < range->model()->rowCount(); ++r) {
                    const QString text = range->model()->index(r, c).data().toString();
                    QVERIFY2(range->columnWidth(c) >= range->fontMetrics().horizontalAdvance(text), qPrintable(text));
                }
        }
        QCOMPARE(w.size(), QSize(1024, 700));
        QCOMPARE(timeline->height(), before);
    }

    // Window sizes (issue #35, item 3): at 1280×720 the findings are listed under the verdict;
    // made larger again the docks get their part back instead of the timeline taking all the new
    // height; the divider above the docks is a grip of several pixels.
    void docksKeepTheirShareAcrossWindowSizes() {
        gui::MainWindow w;
        w.resize(1920, 1080);
        w.show();
        QVERIFY2(openIn(w, m_logdir), qPrintable(w.lastError()));
        QTest::qWait(100);
        QDockWidget *steps = w.findChild<QDockWidget *>("stepsDock");
        QVERIFY(steps);
        const int big = steps->height();
        savePng(w, QStringLiteral("fin_window_1920x1080"));
        w.resize(1280, 720);
        QTest::qWait(100);
        const int small = steps->height();
        savePng(w, QStringLiteral("fin_window_1280x720"));
        QVERIFY2(small < big, qPrintable(QStringLiteral("%1 %2").arg(small).arg(big)));
        auto *findings = static_cast<FindingsView *>(w.viewWidget("findings"));
        QVERIFY2(findings->tree()->height() >= 3 * findings->fontMetrics().lineSpacing(),
                 qPrintable(QStringLiteral("findings list %1 px").arg(findings->tree()->height())));
        w.resize(1920, 1080);
        QTest::qWait(100);
        QVERIFY2(std::abs(steps->height() - big) <= 12,
                 qPrintable(QStringLiteral("docks %1 px at 1080 again, %2 px before").arg(steps->height()).arg(big)));
        QVERIFY(w.style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, &w) >= 6);
        // The Session dock gives its names the room (Kind and Status at most a share of it).
        auto *overview = qobject_cast<QTreeWidget *>(w.viewWidget("session"));
        QVERIFY(overview);
        QVERIFY2(overview->columnWidth(0) >= overview->viewport()->width() * 2 / 5,
                 qPrintable(QStringLiteral("names %1 of %2 px").arg(overview->columnWidth(0)).arg(overview->viewport()->width())));
        // A dock dragged off by mistake: View ▸ Reset Layout puts it back.
        steps->setFloating(true);
        w.resetLayout();
        QTest::qWait(50);
        QVERIFY(!steps->isFloating());
        QVERIFY(std::abs(steps->height() - big) <= 40);
    }

    void labelColumnIsResizableAndRemembered() {
        QSettings().remove(QStringLiteral("timeline/labelWidth"));
        TimeRangeController time;
        const int initial = [&] {
            TimelineView view(SessionModels::of(nullptr, &time));
            return view.labelWidth();
        }();
        QCOMPARE(initial, TimelinePainter::kLabelWidth);
        {
            TimelineView view(SessionModels::of(nullptr, &time));
            view.resize(900, 400);
            view.show();
            QApplication::processEvents();
            const QPoint grip(view.labelWidth() - 1, 200);
            QVERIFY(view.onLabelEdge(grip));
            sendMouse(&view, QEvent::MouseButtonPress, grip, Qt::LeftButton);
            sendMouse(&view, QEvent::MouseMove, grip + QPoint(40, 0), Qt::LeftButton);
            sendMouse(&view, QEvent::MouseMove, grip + QPoint(90, 3), Qt::LeftButton);
            sendMouse(&view, QEvent::MouseButtonRelease, grip + QPoint(90, 3), Qt::NoButton);
            QCOMPARE(view.labelWidth(), initial + 90);
            QCOMPARE(TimelinePainter::dataRect(view.size(), view.labelWidth()).left(), initial + 90);
            // Clamped: the data area keeps its room, the names a minimum.
            view.setLabelWidth(5);
            QCOMPARE(view.labelWidth(), TimelineView::kMinLabelWidth);
            view.setLabelWidth(initial + 90);
        }
        TimelineView again(SessionModels::of(nullptr, &time));
        QCOMPARE(again.labelWidth(), initial + 90);
        QSettings().remove(QStringLiteral("timeline/labelWidth"));
    }

    void memoryTotalIsALineOnTheMemoryTrack() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        w.resize(1400, 900);
        QVERIFY2(openIn(w, m_logdir), qPrintable(w.lastError()));
        TimelineModel *model = qobject_cast<TimelinePaneView *>(w.viewWidget("timeline"))->timeline()->model();
        int memoryTracks = 0;
        for (int i = 0; i < int(model->tracks().size()); ++i) {
            const TimelineTrack &t = model->tracks()[size_t(i)];
            QVERIFY2(!t.name.contains(QStringLiteral("total"), Qt::CaseInsensitive), qPrintable(t.name));
            if (!t.name.startsWith(QStringLiteral("GPU memory used"))) continue;
            ++memoryTracks;
            const TimelineValueSeries *s = model->valueSeries(i);
            QVERIFY(s);
            QVERIFY2(s->limit > 0, "the total rides on the used track");
            QVERIFY(s->limit >= s->max);
            QVERIFY(ValueTrackPainter::scale(*s).second >= s->limit);  // the scale reaches the total
            const QString label = ValueTrackPainter::limitLabel(*s);
            QVERIFY2(label.startsWith(QStringLiteral("total ")) && label.endsWith(QStringLiteral("GiB")), qPrintable(label));
        }
        QCOMPARE(memoryTracks, 2);
    }

    // The allocator's series: a track each on the timeline with the device's size as their line,
    // and one Utilization panel (allocated and reserved per GPU, the totals as lines).
    void allocatorMemoryHasTracksAndAPanel() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        w.resize(1400, 900);
        QVERIFY2(openIn(w, m_logdir), qPrintable(w.lastError()));
        TimelineModel *model = qobject_cast<TimelinePaneView *>(w.viewWidget("timeline"))->timeline()->model();
        int allocated = 0, reserved = 0;
        for (int i = 0; i < int(model->tracks().size()); ++i) {
            const TimelineTrack &t = model->tracks()[size_t(i)];
            const bool a = t.name.startsWith(QStringLiteral("GPU memory allocated"));
            const bool r = t.name.startsWith(QStringLiteral("GPU memory reserved"));
            if (!a && !r) continue;
            allocated += a;
            reserved += r;
            const TimelineValueSeries *s = model->valueSeries(i);
            QVERIFY(s);
            QCOMPARE(s->limit, double(85520809984));  // deviceProperties totalGlobalMem
            // Scaled to the data (a step's allocations show), the total named, not on the scale.
            QVERIFY(!s->limitOnScale);
            QVERIFY(ValueTrackPainter::scale(*s).second < s->limit);
            QCOMPARE(s->max, a ? double(synth::StepSimulator::kStaticBytes + synth::StepSimulator::kActivationBytes)
                               : double(synth::StepSimulator::kReservedBytes));
        }
        QCOMPARE(allocated, 2);
        QCOMPARE(reserved, 2);
        const auto panels = UtilizationPanels::group(*w.metrics());
        const auto panel = std::find_if(panels.begin(), panels.end(), [](const UtilizationPanel &p) { return p.key == QStringLiteral("gpu_mem_alloc"); });
        QVERIFY(panel != panels.end());
        QCOMPARE(panel->series.size(), size_t(4));
        QCOMPARE(panel->limits.size(), size_t(2));
        QCOMPARE(panel->unit, QStringLiteral("B"));
        QVERIFY(!panel->limitsOnScale);
        QStringList labels;
        for (int s : panel->series) labels << UtilizationPanels::seriesLabel(w.metrics()->series(s).info, false);
        QVERIFY2(labels.contains(QStringLiteral("GPU 1 allocated")) && labels.contains(QStringLiteral("GPU 0 reserved")),
                 qPrintable(labels.join(", ")));
        // Grouped, the panel draws a mean per role: allocated and reserved in colours of their own.
        std::set<QRgb> means;
        for (int s : panel->series) means.insert(UtilizationPanels::meanColor(w.metrics()->series(s).info).rgb());
        QCOMPARE(means.size(), size_t(2));
    }

    void findingZoomsToItsSteps() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        w.resize(1400, 900);
        QVERIFY2(openIn(w, m_logdir), qPrintable(w.lastError()));
        auto *findings = qobject_cast<FindingsView *>(w.viewWidget("findings"));
        QVERIFY(findings);
        QTreeWidgetItem *checkpoint = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
            const auto hits = findings->tree()->findItems(QStringLiteral("Checkpoints stall training"), Qt::MatchStartsWith | Qt::MatchRecursive, 1);
            checkpoint = hits.isEmpty() ? nullptr : hits.first();
            return checkpoint != nullptr;
        }()), 60000);
        // The evidence steps, as the analysis timed them.
        SessionReader reader(*w.session()->store());
        const RunRow run = reader.runs().front();
        const RunAnalysis *a = AnalysisModel::of(w.session())->analysisOrStart(run.id);
        QVERIFY(a);
        const Finding *f = nullptr;
        for (const Finding &x : a->findings)
            if (x.title == "Checkpoints stall training") f = &x;
        QVERIFY(f && !f->steps.empty());
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const AnalysisStep &s : a->steps.steps)
            if (std::find(f->steps.begin(), f->steps.end(), s.step) != f->steps.end()) {
                lo = std::min(lo, s.start);
                hi = std::max(hi, s.end);
            }
        QVERIFY(lo < hi);
        findings->activate(checkpoint);
        const NsRange r = w.timeRange()->range();
        const int64_t pad = (hi - lo) / 10 + 1;
        QVERIFY2(r.start >= lo - pad && r.start <= lo && r.end >= hi && r.end <= hi + pad,
                 qPrintable(QStringLiteral("zoomed to %1..%2, steps span %3..%4").arg(r.start).arg(r.end).arg(lo).arg(hi)));
        QVERIFY(r.duration() < w.timeRange()->fullRange().duration());

        // Each evidence step is listed under the finding; a click on one zooms to that step alone.
        QTreeWidgetItem *second = nullptr;
        for (int i = 0; i < checkpoint->childCount(); ++i)
            if (checkpoint->child(i)->text(1).startsWith(QStringLiteral("step %1 ").arg(f->steps[1]))) second = checkpoint->child(i);
        QVERIFY2(second, "the second evidence step is listed");
        findings->activate(second);
        const AnalysisStep *s = nullptr;
        for (const AnalysisStep &x : a->steps.steps)
            if (x.step == f->steps[1]) s = &x;
        QVERIFY(s);
        const NsRange one = w.timeRange()->range();
        QVERIFY(one.start <= s->start && one.end >= s->end && one.duration() < s->dur() * 6 / 5);
    }
};

QTEST_MAIN(TestGuiFinFinish)
#include "tst_gui_fin_finish.moc"

// The GUI of issue #33 on a generated loop with recorded shapes and a slow 11x11 fp32 convolution:
// the op table's efficiency columns and the roofline chart (a dot per costed GPU op under the roofs,
// the slow convolution lowest; clicking a dot selects the op), the Step time view's critical-path mode
// (each bar is the step's path by category plus the part not on it, summing to the step), and the
// timeline's critical-path overlay (marks on the tracks when on, none when off; the band's colour is
// painted where a mark lies); and #35's slice menu and Step box that follows the view. Views are saved to PNG in the build folder (critical_path_*.png).

#include "models/qt/session_models.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"
#include "views/analysis/op_stats_view.h"
#include "views/analysis/roofline_plot.h"
#include "views/steps/step_time_view.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;

class TestGuiCriticalPathEfficiency : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SessionModel m_session;
    TimeRangeController m_time;

    static void save(QWidget *w, const char *name) {
        QCoreApplication::processEvents();
        QVERIFY(w->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/critical_path_%1.png").arg(name)));
    }
    const RunAnalysis *analysis() {
        return AnalysisModel::of(&m_session)->analyseNow(SessionReader(*m_session.store()).runs()[0].id);
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 6;
        o.recordShapes = true;
        o.slowConvMs = 20;
        const std::filesystem::path trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        const std::string file = m_dir.filePath("s.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {trace}, {out, err, false});
        }
        m_session.setStore(std::make_unique<SessionStore>(file));
        m_time.setFullRange(m_session.extent());
        QVERIFY(analysis() && analysis()->criticalPath);
    }

    void opTableAndRoofline() {
        OpStatsView view(SessionModels::of(&m_session, &m_time));
        view.resize(1300, 800);
        view.show();
        view.setRooflineShown(true);
        QCoreApplication::processEvents();
        QVERIFY(!view.table()->isColumnHidden(OpStatsTableModel::PeakPct));
        QVERIFY(!view.table()->isColumnHidden(OpStatsTableModel::Tflops));
        OpStatsTableModel *m = view.model();
        int slow = -1;
        for (int r = 0; r < m->rowCount(); ++r)
            if (m->op(r)->name.find("implicit_convolve_sgemm") != std::string::npos) slow = r;
        QVERIFY(slow >= 0);
        QCOMPARE(m->index(slow, OpStatsTableModel::Bound).data().toString(), QString("compute"));
        const double pct = m->index(slow, OpStatsTableModel::PeakPct).data(OpStatsTableModel::SortRole).toDouble();
        QVERIFY2(pct > 1 && pct < 3, qPrintable(QString::number(pct)));
        QVERIFY(m->index(slow, OpStatsTableModel::PeakPct).data(Qt::ToolTipRole).toString().contains("[32,32,11,11]"));

        RooflinePlot *plot = view.roofline();
        QVERIFY(plot->isVisible());
        QVERIFY2(plot->pointCount() >= 4, qPrintable(plot->note()));
        QVERIFY(plot->roofCount() >= 2);  // fp32 and tf32 on the H100
        QVERIFY(plot->note().contains("on the roofline"));
        // The slow convolution is the lowest dot; a click on it selects it.
        int lowest = -1;
        double lowestY = -1;
        for (int i = 0; i < plot->pointCount(); ++i) {
            QVERIFY(plot->pointText(i).contains("TFLOPS"));
            if (plot->pointText(i).contains("implicit_convolve_sgemm")) lowest = i;
        }
        QVERIFY(lowest >= 0);
        for (int i = 0; i < plot->graphCount(); ++i) {
            const QCPGraph *g = plot->graph(i);
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                if (g->lineStyle() == QCPGraph::lsNone) lowestY = lowestY < 0 ? it->value : std::min(lowestY, it->value);
        }
        QVERIFY(lowestY > 1 && lowestY < 1.5);  // 1.24 TFLOPS: 2.49e10 FLOPs in 20 ms
        QSignalSpy clicked(&view, &OpStatsView::opSelected);
        int target = -1;
        for (int x = 0; x < plot->width() && target < 0; x += 2)
            for (int y = 0; y < plot->height() && target < 0; y += 2)
                if (plot->pointAt(QPointF(x, y)) == lowest) target = x * 100000 + y;
        QVERIFY(target >= 0);
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(target / 100000, target % 100000));
        QCOMPARE(clicked.count(), 1);
        QVERIFY(clicked.at(0).at(0).toString().contains("implicit_convolve_sgemm"));
        save(&view, "ops");
    }

    void stepBarsShowThePath() {
        StepTimeView view(SessionModels::of(&m_session, &m_time));
        view.resize(1000, 420);
        view.show();
        view.setShowCriticalPath(true);
        const RunAnalysis *a = analysis();
        // Each bar: the path's categories plus the part not on it sum to the step; the path part alone
        // to the path's length.
        for (int k = 0; k < 6; ++k) {
            double all = 0, off = 0;
            for (int i = 0; i < view.plot()->plottableCount(); ++i)
                if (auto *bars = qobject_cast<QCPBars *>(view.plot()->plottable(i))) {
                    if (bars->data()->isEmpty() || bars->brush().style() == Qt::NoBrush) continue;
                    all += bars->data()->at(k)->value;
                    if (bars->brush().style() == Qt::BDiagPattern) off = bars->data()->at(k)->value;
                }
            QCOMPARE(qRound64(all * 1e6), a->steps.steps[size_t(k)].dur());
            QCOMPARE(qRound64((all - off) * 1e6), a->criticalPath->steps[size_t(k)].lengthNs);
        }
        QVERIFY(view.stepSummary(a->steps.steps[2].step).contains("critical path"));
        save(&view, "steps");
        view.setShowCriticalPath(false);
        QVERIFY(!view.showsCriticalPath());
    }

    void timelineOverlay() {
        TimelinePaneView pane(SessionModels::of(&m_session, &m_time));
        pane.resize(1400, 700);
        pane.show();
        pane.timeline()->model()->load(m_session.store());
        const auto &step = analysis()->steps.steps[2];
        m_time.setRange({step.start, step.end});
        pane.setCriticalPathShown(false);
        QVERIFY(pane.timeline()->criticalPath().empty());
        pane.setCriticalPathShown(true);
        const auto &marks = pane.timeline()->criticalPath();
        QVERIFY(!marks.empty());
        int64_t inStep = 0;
        for (const CriticalPathMark &m : marks) {
            QVERIFY(m.track >= 0 && m.end >= m.start);
            if (m.start >= step.start && m.end <= step.end) inStep += m.end - m.start;
        }
        // The marks of this step cover its path (merged stretches, never more than the step).
        QVERIFY(inStep >= analysis()->criticalPath->steps[2].lengthNs * 9 / 10 && inStep <= step.dur());
        save(&pane, "timeline");
        // The Step box follows the view (#35 item 7): zoomed to step 5, it says 5.
        const auto &step5 = analysis()->steps.steps[4];
        m_time.setRange({step5.hostStart, step5.hostEnd});
        QCOMPARE(pane.findChild<QSpinBox *>(QStringLiteral("stepBox"))->value(), int(step5.step));
    }

    // Right-click on a slice (#35 item 15): copy its name, find all of its name, zoom to it or its step.
    void sliceMenu() {
        TimelinePaneView pane(SessionModels::of(&m_session, &m_time));
        pane.resize(1400, 700);
        pane.show();
        pane.timeline()->model()->load(m_session.store());
        const auto &step = analysis()->steps.steps[1];
        m_time.setRange({step.hostStart, step.hostEnd});
        TimelineView *view = pane.timeline();
        const TimelineHit *hit = nullptr;
        for (int tries = 0; tries < 50 && !hit; ++tries) {
            view->grab();  // paints: the hits of the frame
            QCoreApplication::processEvents();
            for (const TimelineHit &h : view->lastHits())
                if (!h.item.block && h.item.sliceId >= 0 && h.item.durNs > 0) hit = &h;
        }
        QVERIFY(hit);
        const TimelineHit copy = *hit;
        const QString name = view->model()->nameText(copy.item.nameId);
        QMenu menu;
        view->addSliceActions(menu, copy);
        QStringList texts;
        for (QAction *a : menu.actions()) texts << a->text();
        auto action = [&](const QString &prefix) -> QAction * {
            for (QAction *a : menu.actions())
                if (a->text().startsWith(prefix)) return a;
            return nullptr;
        };
        QVERIFY2(action("Copy Name") && action("Copy Details") && action("Find All") && action("Zoom to Slice") &&
                     action("Zoom to Its Step") && action("Select"), qPrintable(texts.join(" | ")));
        action("Copy Name")->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), name);
        action("Zoom to Slice")->trigger();
        QVERIFY(m_time.range().start <= copy.item.startNs && m_time.range().end >= copy.item.endNs() &&
                m_time.range().duration() < copy.item.durNs * 2 + 2000);
        action("Find All")->trigger();
        QCOMPARE(pane.searchField()->text(), name);
        // The Details pane's menu copies a value, a row or everything.
        SliceDetailsView details(view, &m_time);
        action("Select")->trigger();
        QCoreApplication::processEvents();
        QVERIFY(details.sliceTree()->topLevelItemCount() > 0);
        QTreeWidgetItem *first = details.sliceTree()->topLevelItem(0);
        QMenu copyMenu;
        details.addCopyActions(copyMenu, first);
        QCOMPARE(copyMenu.actions().size(), 3);
        copyMenu.actions().at(0)->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), first->text(1));
        copyMenu.actions().at(2)->trigger();
        QVERIFY(QGuiApplication::clipboard()->text().contains(name));
    }
};

QTEST_MAIN(TestGuiCriticalPathEfficiency)
#include "tst_gui_critical_path_efficiency.moc"

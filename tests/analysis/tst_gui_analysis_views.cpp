// The analysis views on a generated checkpoint-bound profile: stacked step bars (bars, tooltip, click
// zooms), op stats table (sorting, filter, side toggle), findings panel (click zooms to evidence).
// Each view is rendered offscreen to PNG in the build folder (analysis_view_*.png) for inspection.

#include "models/qt/session_models.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "models/analysis/tables/range_op_stats.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"
#include "views/analysis/findings_view.h"
#include "views/analysis/op_stats_view.h"
#include "views/steps/step_time_view.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;

class TestGuiAnalysisViews : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SessionModel m_session;
    TimeRangeController m_time;

    static void save(QWidget *w, const char *name) {
        w->resize(1000, 420);
        w->show();
        QCoreApplication::processEvents();
        const QString path = QStringLiteral(STEPSCOPE_BINARY_DIR "/analysis_view_%1.png").arg(name);
        QVERIFY(w->grab().save(path));
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 24;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        const std::filesystem::path trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        const std::string file = m_dir.filePath("s.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {trace}, {out, err, false});
        }
        m_session.setStore(std::make_unique<SessionStore>(file));
        const NsRange extent = m_session.extent();
        m_time.setFullRange(extent);
    }

    void stepBars() {
        StepTimeView view(SessionModels::of(&m_session, &m_time));
        QCOMPARE(view.barCount(), 24);
        const RunAnalysis *a = AnalysisModel::of(&m_session)->analyseNow(m_session.store() ? SessionReader(*m_session.store()).runs()[0].id : 0);
        QVERIFY(a);
        // Step 10 checkpoints: its tooltip names the category and the outlier cause.
        const QString tip = view.stepSummary(10);
        QVERIFY2(tip.contains("checkpoint") && tip.contains("outlier"), qPrintable(tip));
        QVERIFY(view.stepSummary(10.5).isEmpty());
        // The stacked bars sum to the step time; the outline beside them is the step with the
        // checkpoint fixed (the bottleneck's projection), named in the legend.
        double sum = 0;
        QCPBars *outline = nullptr;
        for (int i = 0; i < view.plot()->plottableCount(); ++i)
            if (auto *bars = qobject_cast<QCPBars *>(view.plot()->plottable(i))) {
                if (bars->data()->isEmpty()) continue;  // "not on the path": the critical path is not shown
                if (bars->brush().style() == Qt::NoBrush) outline = bars;
                else sum += bars->data()->at(9)->value;
            }
        QCOMPARE(qRound64(sum * 1e6), a->steps.steps[9].dur());
        QVERIFY(outline && a->projection);
        QCOMPARE(outline->name(), QString("if checkpoint fixed"));
        QVERIFY(view.plot()->legend->hasItemWithPlottable(outline));
        QCOMPARE(qRound64(outline->data()->at(9)->value * 1e6), a->projection->perStepNs[9]);
        QVERIFY(a->projection->perStepNs[9] < a->steps.steps[9].dur() / 2);  // step 10 checkpoints
        save(&view, "steps");
        // Clicking a bar zooms to that step.
        view.plot()->replot();
        const QPoint p(int(view.plot()->xAxis->coordToPixel(10)), int(view.plot()->yAxis->coordToPixel(1)));
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, p);
        QCOMPARE(m_time.range().start, a->steps.steps[9].start);
        QCOMPARE(m_time.range().end, a->steps.steps[9].end);
    }

    void opTable() {
        OpStatsView view(SessionModels::of(&m_session, &m_time));
        QVERIFY(view.table()->model()->rowCount() > 10);
        // Sorted by total time, longest first.
        const auto *proxy = view.table()->model();
        QVERIFY(proxy->index(0, OpStatsTableModel::Total).data(OpStatsTableModel::SortRole).toDouble() >=
                proxy->index(1, OpStatsTableModel::Total).data(OpStatsTableModel::SortRole).toDouble());
        save(&view, "ops");
        view.setSide(1);
        view.setFilterText("torch.save");
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(proxy->index(0, OpStatsTableModel::Count).data().toInt(), 2);  // steps 10 and 20
        QSignalSpy spy(&view, &OpStatsView::opSelected);
        view.table()->selectRow(0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString("torch.save"));
    }

    void opTableFollowsTheVisibleRange() {
        OpStatsView view(SessionModels::of(&m_session, &m_time));
        const RunAnalysis *a = AnalysisModel::of(&m_session)->analyseNow(SessionReader(*m_session.store()).runs()[0].id);
        QVERIFY(a);
        view.setSide(1);
        view.setFilterText("torch.save");
        const auto *proxy = view.table()->model();
        QCOMPARE(proxy->index(0, OpStatsTableModel::Count).data().toInt(), 2);  // whole run: steps 10 and 20
        // Zoomed to step 10: only its checkpoint, counted in the background.
        const AnalysisStep &s10 = a->steps.steps[9];
        m_time.setRange({s10.start, s10.end});
        view.setVisibleRangeOnly(true);
        QTRY_COMPARE(view.rangeStats()->range(), (NsRange{s10.start, s10.end}));
        QTRY_COMPARE(proxy->rowCount(), 1);
        QCOMPARE(proxy->index(0, OpStatsTableModel::Count).data().toInt(), 1);
        QVERIFY(view.findChild<QLabel *>("opStatsScope")->text().contains("visible range"));
        // Once the numbers are in, the caption no longer says they are coming (issue #35, item 6).
        QTRY_VERIFY(!view.rangeStats()->busy());
        QVERIFY2(!view.findChild<QLabel *>("opStatsScope")->text().contains("updating"),
                 qPrintable(view.findChild<QLabel *>("opStatsScope")->text()));
        // The run's events are read once, on the worker, and kept only while the option is on.
        QVERIFY(view.rangeStats()->holdsEvents());
        // The same numbers as the analyzer over that window.
        const RunRow run = SessionReader(*m_session.store()).runs()[0];
        const auto direct = RangeOpStats::compute(*RangeOpStats::loadEvents(m_session.store()->path(), run), a->ops,
                                                  {s10.start, s10.end});
        QCOMPARE(view.model()->rowCount(), int(std::count_if(direct.begin(), direct.end(), [](const OpStat &o) { return o.host(); })));
        // Step 3 has none: the table empties as the view moves (pan coalesced, last range wins).
        const AnalysisStep &s3 = a->steps.steps[2], &s4 = a->steps.steps[3];
        m_time.setRange({s4.start, s4.end});
        m_time.setRange({s3.start, s3.end});
        QTRY_COMPARE(view.rangeStats()->range(), (NsRange{s3.start, s3.end}));
        QTRY_COMPARE(proxy->rowCount(), 0);
        QTRY_VERIFY(!view.findChild<QLabel *>("opStatsScope")->text().contains("updating"));
        save(&view, "ops_range");
        view.setVisibleRangeOnly(false);  // back to the whole run, and the events are let go
        QCOMPARE(proxy->index(0, OpStatsTableModel::Count).data().toInt(), 2);
        QVERIFY(!view.rangeStats()->holdsEvents());
        m_time.zoomToFull();
    }

    void bigRunsAreAnalysedInTheBackground() {
        // A session of its own, where every run counts as big: the views open at once and fill in.
        // The analyses the earlier tests stored are forgotten, or the views would read them back.
        sqliteExec(m_session.store()->db(), "DELETE FROM analysis_result");
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(m_session.store()->path()));
        AnalysisModel *analysis = AnalysisModel::of(&session);
        analysis->setBackgroundThreshold(0);
        QSignalSpy changed(analysis, &AnalysisModel::changed);
        StepTimeView steps(SessionModels::of(&session, &m_time));
        FindingsView findings(SessionModels::of(&session, &m_time));
        const int64_t run = analysis->runs().at(0).id;
        QVERIFY(analysis->pending(run));
        QCOMPARE(steps.barCount(), 0);
        auto says = [](QWidget &w, const QString &text) {
            for (const QLabel *l : w.findChildren<QLabel *>())
                if (l->text().contains(text)) return true;
            return false;
        };
        QVERIFY(says(steps, "Analysing the run in the background"));
        QVERIFY(says(findings, "Analysing the run in the background"));
        QTRY_VERIFY(!analysis->pending(run));
        QVERIFY(changed.count() >= 1);
        QTRY_COMPARE(steps.barCount(), 24);
        QVERIFY(says(findings, "Bottleneck"));
        QVERIFY(analysis->analysisOrStart(run));
        // The result was stored: a re-open reads it back at once, big as the run is.
        session.setStore(std::make_unique<SessionStore>(m_session.store()->path()));
        QVERIFY(analysis->analysisOrStart(run));
        QVERIFY(!analysis->pending(run));
        // A new session while one is running: the old result never lands in the new session.
        sqliteExec(m_session.store()->db(), "DELETE FROM analysis_result");
        session.setStore(std::make_unique<SessionStore>(m_session.store()->path()));
        QVERIFY(!analysis->analysisOrStart(run));
        QVERIFY(analysis->pending(run));
        session.setStore(std::make_unique<SessionStore>(m_session.store()->path()));
        // analyseNow() answers now, in place of the running job.
        QVERIFY(!analysis->analysisOrStart(run));
        const RunAnalysis *now = analysis->analyseNow(run);
        QVERIFY(now);
        QCOMPARE(now->steps.steps.size(), size_t(24));
        QVERIFY(!analysis->pending(run));
    }

    void findingsPanel() {
        FindingsView view(SessionModels::of(&m_session, &m_time));
        QTreeWidgetItem *findings = view.tree()->topLevelItem(0);
        QTreeWidgetItem *checkpoint = nullptr;
        for (int i = 0; i < findings->childCount(); ++i)
            if (findings->child(i)->text(1).startsWith("Checkpoints stall training")) checkpoint = findings->child(i);
        QVERIFY(checkpoint);
        // It says what fixing it is worth, and the findings lead with the biggest projected gain.
        // Each names the cause its projection removes.
        QVERIFY2(checkpoint->text(1).contains(" — checkpoint fixed: ") && checkpoint->text(1).contains("×"), qPrintable(checkpoint->text(1)));
        QVERIFY2(findings->child(0)->text(1).contains(" fixed: "), qPrintable(findings->child(0)->text(1)));
        QVERIFY(view.bottleneckText().contains("Biggest gain"));
        QCOMPARE(checkpoint->text(0), QString("high"));
        QCOMPARE(checkpoint->text(2), QString("steps 10, 20"));
        view.tree()->expandAll();
        save(&view, "findings");
        m_time.zoomToFull();
        view.activate(checkpoint);
        QVERIFY(m_time.range().duration() < m_time.fullRange().duration());
        QVERIFY(view.tree()->topLevelItem(1)->childCount() > 0);  // the longest gaps
    }
};

QTEST_MAIN(TestGuiAnalysisViews)
#include "tst_gui_analysis_views.moc"

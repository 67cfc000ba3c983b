// The Job dock (views/job/job_view.h) on a synthetic 6-rank job whose rank 4 is late on its input:
// the finding names the straggler, the heatmap holds one cell per rank and step, a click on a cell
// zooms every view to that rank's step, the breakdown has one bar per rank with the input share of
// rank 4 above the others. Rendered offscreen to job_view.png in the build folder for inspection.

#include "models/analysis/analysis_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/jobs/job_test_support.h"
#include "tests/test_support.h"
#include "views/export/export_caption.h"
#include "views/job/job_view.h"

#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;
using namespace stepscope::test;

class TestGuiJobView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SyntheticJob m_job;
    SessionModel m_session;
    TimeRangeController m_time;

private slots:
    void initTestCase() {
        isolateSettings();
        writeJob(m_job, jobOptions(6, 4, synth::LateCause::Input, 30, 10, 60));
        const std::string file = m_dir.filePath("s.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {m_job.path()}, {out, err, false});
        }
        m_session.setStore(std::make_unique<SessionStore>(file));
        const NsRange extent = m_session.extent();
        m_time.setFullRange(extent);
    }

    void showsTheJob() {
        JobView view(&m_session, &m_time);
        QVERIFY(view.job());
        QCOMPARE(view.job()->ranks, 6);
        QVERIFY(!view.heatmap()->isHidden() && !view.breakdown()->isHidden());
        QVERIFY2(view.findingText().contains(QStringLiteral("Straggler: rank 4")), qPrintable(view.findingText()));
        QVERIFY(view.findingText().contains(QStringLiteral("input")));
        auto *map = qobject_cast<QCPColorMap *>(view.heatmap()->plottable(0));
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), 10);
        QCOMPARE(map->data()->valueSize(), 6);
        QVERIFY(map->data()->cell(3, 2) > 0);
        // One stacked bar per rank; rank 4's input bar stands above every other rank's.
        QCPBars *input = nullptr;
        for (int i = 0; i < view.breakdown()->plottableCount(); ++i)
            if (view.breakdown()->plottable(i)->name() == QStringLiteral("input"))
                input = qobject_cast<QCPBars *>(view.breakdown()->plottable(i));
        QVERIFY(input);
        QCOMPARE(input->data()->size(), 6);
        for (int r = 0; r < 6; ++r)
            if (r != 4) QVERIFY(input->data()->at(4)->value > input->data()->at(r)->value + 20);
        QVERIFY(input->visible());

        // A click on a cell: every view shows that step of that rank.
        QVERIFY(view.showCell(2, 5));
        const RunAnalysis *a = AnalysisModel::of(&m_session)->analysis(
            SessionReader(*m_session.store()).runs()[view.job()->ranksTable[2].runIndex].id);
        QVERIFY(a);
        const AnalysisStep &s = a->steps.steps[view.job()->stepIndex[2][5]];
        QCOMPARE(m_time.range().start, s.start);
        QCOMPARE(m_time.range().end, s.end);
        QVERIFY(!view.showCell(6, 0));
        QVERIFY(!view.showCell(0, 10));

        // The same through the mouse: the centre of cell (rank row 1, step column 7).
        view.resize(1200, 460);
        view.show();
        QCoreApplication::processEvents();
        view.heatmap()->replot();
        const QPoint at(int(view.heatmap()->xAxis->coordToPixel(7)), int(view.heatmap()->yAxis->coordToPixel(1)));
        QTest::mouseClick(view.heatmap(), Qt::LeftButton, {}, at);
        const RunAnalysis *b = AnalysisModel::of(&m_session)->analysis(
            SessionReader(*m_session.store()).runs()[view.job()->ranksTable[1].runIndex].id);
        QCOMPARE(m_time.range().start, b->steps.steps[view.job()->stepIndex[1][7]].start);

        QVERIFY(view.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_view.png")));
    }

    void exportCaptionNamesTheRootCause() {
        // The ranks' own verdicts say "collective" (the wait); the caption's job line says why.
        const ExportDecoration d = ExportCaption::build(&m_session, m_time.fullRange(), QStringLiteral("job"));
        const QString all = d.caption.join('\n');
        QVERIFY2(all.contains(QStringLiteral("Job: 6 ranks · bottleneck input on rank 4")), qPrintable(all));
    }

    void noJobSaysSo() {
        SessionModel single;
        QTemporaryDir dir;
        const std::string file = dir.filePath("one.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {m_job.path() / "rank-0.pt.trace.json.gz"}, {out, err, false});
        }
        single.setStore(std::make_unique<SessionStore>(file));
        JobView view(&single, &m_time);
        QVERIFY(!view.job());
        QVERIFY(view.findingText().contains(QStringLiteral("No job")));
        QVERIFY(view.heatmap()->isHidden() && view.breakdown()->isHidden());  // no empty charts
    }
};

QTEST_MAIN(TestGuiJobView)
#include "tst_gui_job_view.moc"

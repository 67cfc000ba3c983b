// The Job dock (views/job/job_view.h) on a synthetic 6-rank job whose rank 4 is late on its input:
// the finding names the straggler, the heatmap holds one cell per rank and step, a click on a cell
// zooms every view to that rank's step, the breakdown has one bar per rank with the input share of
// rank 4 above the others. Rendered offscreen to job_view.png in the build folder for inspection.

#include "models/qt/session_models.h"
#include "models/analysis/service/analysis_model.h"
#include "models/analysis/rules/projection_rules.h"
#include "tests/analysis/import_helper.h"
#include "tests/jobs/job_test_support.h"
#include "tests/test_support.h"
#include "views/analysis/findings_view.h"
#include "views/steps/step_time_view.h"
#include "views/export/export_caption.h"
#include "views/job/job_heatmap_plot.h"
#include "views/job/job_view.h"

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QTreeWidget>
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
        JobView view(SessionModels::of(&m_session, &m_time));
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
        const RunAnalysis *a = AnalysisModel::of(&m_session)->analyseNow(
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
        const RunAnalysis *b = AnalysisModel::of(&m_session)->analyseNow(
            SessionReader(*m_session.store()).runs()[view.job()->ranksTable[1].runIndex].id);
        QCOMPARE(m_time.range().start, b->steps.steps[view.job()->stepIndex[1][7]].start);

        QVERIFY(view.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_view.png")));
    }

    // By default the heatmap colours how late each rank reaches the first all-reduce: the
    // straggler's row is the late one, by what the job analysis says it costs; the others are on time.
    void arrivalHeatmapShowsTheStraggler() {
        JobView view(SessionModels::of(&m_session, &m_time));
        view.resize(1200, 460);
        view.show();
        QCoreApplication::processEvents();
        QCOMPARE(view.measureBox()->currentData().toString(), QStringLiteral("arrival"));
        JobHeatmapPlot *plot = view.heatmap();
        QCOMPARE(plot->measure(), JobHeatmapPlot::Measure::Arrival);
        QCOMPARE(plot->scale()->label(), QStringLiteral("late at the first all-reduce (ms)"));
        QCOMPARE(plot->map()->dataRange().lower, 0.0);
        const JobAnalysis &job = *view.job();
        QVERIFY(!job.stragglers.empty());
        auto *data = plot->map()->data();
        for (int r = 0; r < data->valueSize(); ++r) {
            double sum = 0;
            int n = 0;
            for (int k = 0; k < data->keySize(); ++k)
                if (!std::isnan(data->cell(k, r))) sum += data->cell(k, r), ++n;
            QVERIFY(n > 0);
            const double mean = sum / n;
            if (job.ranksTable[size_t(r)].rank == job.stragglers.front().rank)
                QVERIFY2(std::abs(mean - job.stragglers.front().lateMsPerStep) < 0.2 * job.stragglers.front().lateMsPerStep,
                         qPrintable(QString("straggler late %1 ms, job says %2").arg(mean).arg(job.stragglers.front().lateMsPerStep)));
            else
                QVERIFY2(mean < 0.2 * job.stragglers.front().lateMsPerStep, qPrintable(QString("rank row %1 late %2 ms").arg(r).arg(mean)));
        }
        QVERIFY(plot->cellText(0, 0).contains(QStringLiteral("after the earliest rank")));
        // Step time, chosen, is remembered.
        view.measureBox()->setCurrentIndex(view.measureBox()->findData(QStringLiteral("step_time")));
        QCOMPARE(plot->measure(), JobHeatmapPlot::Measure::StepTime);
        QCOMPARE(QSettings().value(QStringLiteral("job/heatmap")).toString(), QStringLiteral("step_time"));
        JobView again(SessionModels::of(&m_session, &m_time));
        QCOMPARE(again.measureBox()->currentData().toString(), QStringLiteral("step_time"));
        view.measureBox()->setCurrentIndex(view.measureBox()->findData(QStringLiteral("arrival")));
    }

    void everyValueIsAColourAndHolesAreGrey() {
        JobView view(SessionModels::of(&m_session, &m_time));
        view.resize(1200, 460);
        view.show();
        view.measureBox()->setCurrentIndex(view.measureBox()->findData(QStringLiteral("step_time")));
        QCoreApplication::processEvents();
        JobHeatmapPlot *plot = view.heatmap();
        plot->replot();
        // The slowest and the fastest cell, drawn: both plainly coloured, far from the white plot and
        // from a missing cell's grey.
        const QImage image = plot->toPixmap().toImage();
        auto distance = [](QColor a, QColor b) {
            return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
        };
        int maxRow = 0, maxColumn = 0, minRow = 0, minColumn = 0;
        auto *data = plot->map()->data();
        for (int r = 0; r < data->valueSize(); ++r)
            for (int k = 0; k < data->keySize(); ++k) {
                if (data->cell(k, r) > data->cell(maxColumn, maxRow)) { maxRow = r; maxColumn = k; }
                if (data->cell(k, r) < data->cell(minColumn, minRow)) { minRow = r; minColumn = k; }
            }
        const QColor background = image.pixelColor(plot->width() / 2, 2);  // above the cells
        for (const auto &[row, column] : {std::pair{maxRow, maxColumn}, std::pair{minRow, minColumn}}) {
            const QPoint at(int(plot->xAxis->coordToPixel(column)), int(plot->yAxis->coordToPixel(row)));
            const QColor drawn = image.pixelColor(at);
            QVERIFY2(distance(drawn, QColor(Qt::white)) > 90 && distance(drawn, background) > 90,
                     qPrintable(QStringLiteral("cell %1,%2 drawn %3").arg(row).arg(column).arg(drawn.name())));
            QVERIFY2(distance(drawn, JobHeatmapPlot::missingColor()) > 90, qPrintable(drawn.name()));
            QCOMPARE(drawn, plot->colorOf(data->cell(column, row)));
        }
        // The scale runs light yellow → dark red over at least kMinSpread of the slowest step: steps a
        // few percent apart look alike, not like the two ends of the scale.
        const double lo = data->cell(minColumn, minRow), hi = data->cell(maxColumn, maxRow);
        const QCPRange range = plot->map()->dataRange();
        QCOMPARE(range.lower, lo);
        QVERIFY(range.upper >= hi && range.size() >= JobHeatmapPlot::kMinSpread * hi - 1e-9);
        QVERIFY(distance(plot->colorOf(range.upper), plot->colorOf(range.lower)) > 150);
        QVERIFY(hi > lo);
        if (hi - lo < 0.05 * hi) QVERIFY(distance(plot->colorOf(hi), plot->colorOf(lo)) < 150);
        QCOMPARE(plot->scale()->label(), QStringLiteral("step time (ms)"));
        QVERIFY(plot->cellText(maxRow, maxColumn).contains(QStringLiteral(" ms")));

        // A rank that lacks steps 9 and 10: grey, hatched cells that say so; the rest compared as usual.
        SyntheticJob shorter;
        writeJob(shorter, jobOptions(3, -1, synth::LateCause::Input, 0, 8, 20));
        QTemporaryDir dir;
        const std::string file = dir.filePath("holes.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {m_job.path() / "rank-0.pt.trace.json.gz", m_job.path() / "rank-1.pt.trace.json.gz",
                                    shorter.path() / "rank-2.pt.trace.json.gz"}, {out, err, false});
        }
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(file));
        JobView holes(SessionModels::of(&session, &m_time));
        QVERIFY(holes.job());
        QCOMPARE(int(holes.columnSteps().size()), 10);
        QCOMPARE(holes.cellStepIndex(2, 9), int64_t(-1));
        QVERIFY(holes.cellStepIndex(1, 9) >= 0);
        QVERIFY(std::isnan(holes.heatmap()->map()->data()->cell(9, 2)));
        QCOMPARE(holes.heatmap()->cellText(2, 9), QStringLiteral("rank 2 has no step %1").arg(holes.columnSteps()[9]));
        QVERIFY(!holes.showCell(2, 9));
        holes.resize(1200, 460);
        holes.show();
        QCoreApplication::processEvents();
        holes.heatmap()->replot();
        const QImage withHoles = holes.heatmap()->toPixmap().toImage();
        // Grey or its hatching, never a value's colour.
        const QPoint hole(int(holes.heatmap()->xAxis->coordToPixel(9)), int(holes.heatmap()->yAxis->coordToPixel(2)));
        int grey = 0;
        for (int dx = -3; dx <= 3; ++dx) {
            const QColor c = withHoles.pixelColor(hole + QPoint(dx, 0));
            if (std::abs(c.red() - c.green()) < 12 && std::abs(c.green() - c.blue()) < 12) ++grey;
        }
        QCOMPARE(grey, 7);
        QVERIFY(holes.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_view_holes.png")));
    }

    // The Findings panel of a rank shows what the job says about it first, as the report does: a
    // waiting rank "Waits ~N ms/step for rank 4's input" (and its collective verdict is the symptom),
    // the straggler "Holds the job back".
    void findingsOfEachRankNameTheStraggler() {
        FindingsView view(SessionModels::of(&m_session, &m_time));
        auto *runs = view.findChild<QComboBox *>();
        QVERIFY(runs);
        const auto firstFinding = [&] {
            QTreeWidgetItem *group = view.tree()->topLevelItem(0);
            return group && group->childCount() > 0 ? group->child(0)->text(1) : QString();
        };
        runs->setCurrentIndex(runs->findText(QStringLiteral("rank 0")));
        QVERIFY2(firstFinding().startsWith(QStringLiteral("Waits ~")) && firstFinding().contains(QStringLiteral("rank 4's input")),
                 qPrintable(firstFinding()));
        QVERIFY2(view.bottleneckText().contains(QStringLiteral("for rank 4's input")), qPrintable(view.bottleneckText()));
        // What fixing it is worth, for a waiting rank: the straggler, not its own collective time.
        QVERIFY2(view.bottleneckText().contains(QStringLiteral("Biggest gain: <b>straggler: step")), qPrintable(view.bottleneckText()));
        runs->setCurrentIndex(runs->findText(QStringLiteral("rank 4")));
        QVERIFY2(firstFinding().startsWith(QStringLiteral("Holds the job back")), qPrintable(firstFinding()));
        QVERIFY(!view.bottleneckText().contains(QStringLiteral("the symptom")));
        // On the straggler, the biggest gain is the larger of the job's fix and its own causes'.
        {
            AnalysisModel *model = AnalysisModel::of(&m_session);
            const int64_t id = runs->currentData().toLongLong();
            const JobRankNote note = model->jobNote(id);
            const auto own = rankedProjections(*model->analysisOrStart(id));
            QVERIFY(note.finding && note.finding->projection && !own.empty());
            const Projection &best = own.front()->speedup > note.finding->projection->speedup ? *own.front() : *note.finding->projection;
            QVERIFY2(view.bottleneckText().contains(QStringLiteral("Biggest gain: <b>") + QString::fromStdString(describeProjection(best))),
                     qPrintable(view.bottleneckText()));
        }

        // The Step time view of rank 0 says the same, and draws that projection.
        StepTimeView steps(SessionModels::of(&m_session, &m_time));
        steps.findChild<QComboBox *>()->setCurrentIndex(steps.findChild<QComboBox *>()->findText(QStringLiteral("rank 0")));
        QString summary, tip;
        for (const QLabel *l : steps.findChildren<QLabel *>())
            if (l->text().startsWith(QStringLiteral("bottleneck:"))) summary = l->text(), tip = l->toolTip();
        QVERIFY2(summary.contains(QStringLiteral("straggler fixed")), qPrintable(summary));
        QVERIFY2(tip.contains(QStringLiteral("the symptom")), qPrintable(tip));
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
        JobView view(SessionModels::of(&single, &m_time));
        QVERIFY(!view.job());
        QVERIFY(view.findingText().contains(QStringLiteral("No job")));
        QVERIFY(view.heatmap()->isHidden() && view.breakdown()->isHidden());  // no empty charts
    }
};

QTEST_MAIN(TestGuiJobView)
#include "tst_gui_job_view.moc"

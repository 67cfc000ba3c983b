// Panels scroll rather than squash (issue #18, items 8 and 13): at the height a 1024×700 window
// leaves the Utilization dock, a drag-selection's statistics table does not shrink the charts below
// their minimum height (the charts scroll); nvidia-smi's constant memory.total is a dashed line on
// the GPU memory chart (one for GPUs of one total), with its value in the legend, not a chart of its own; with notes on the step
// bars, the bars and outlier marks stay below the band the note labels use. PNGs in the build folder
// (panels_utilization*.png, panels_steps_notes.png).

#include "models/qt/session_models.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"
#include "tests/utilization/utilization_fixture.h"
#include "views/steps/step_time_view.h"

#include <QScrollArea>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;
using namespace stepscope::test;

class TestGuiPanelsLayout : public QObject {
    Q_OBJECT

    static void checkChartHeights(UtilizationView &view, const char *when) {
        QCoreApplication::processEvents();
        view.plot()->replot();
        for (QCPAxisRect *rect : view.plot()->axisRects())
            QVERIFY2(rect->height() >= UtilizationView::kMinChartHeight,
                     qPrintable(QStringLiteral("%1: a chart is %2 px").arg(QLatin1String(when)).arg(rect->height())));
    }

private slots:
    void initTestCase() { isolateSettings(); }

    void utilizationChartsKeepTheirHeight() {
        UtilizationFixture f;
        f.openSynthetic(2, synth::Bottleneck::Input, 30);
        // The Utilization dock of a 1024×700 window: the whole width, a third of the height.
        f.view->resize(1024, 260);
        QCoreApplication::processEvents();
        QVERIFY(f.view->panels().size() >= 3);
        checkChartHeights(*f.view, "before a selection");
        const NsRange full = f.time.fullRange();
        f.time.setSelection({full.start + full.duration() / 4, full.start + full.duration() / 2});
        checkChartHeights(*f.view, "with a selection");
        auto *scroll = f.view->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QVERIFY2(scroll->verticalScrollBar()->maximum() > 0, "the charts scroll instead");
        QVERIFY(!f.savePng(QStringLiteral("panels_utilization_selection")).isEmpty());
    }

    void memoryTotalIsALineOnTheMemoryChart() {
        UtilizationFixture f;
        f.openSynthetic(2, synth::Bottleneck::None, 20);
        int memory = -1;
        for (size_t p = 0; p < f.view->panels().size(); ++p) {
            const UtilizationPanel &panel = f.view->panels()[p];
            for (int s : panel.series) QVERIFY(f.metrics->series(s).info.name != "memory.total");
            if (panel.key == QLatin1String("gpu_mem_used")) memory = int(p);
        }
        QVERIFY(memory >= 0);
        const UtilizationPanel &panel = f.view->panels()[size_t(memory)];
        QCOMPARE(int(panel.limits.size()), 2);  // one total per GPU
        // Its legend names the line and its value, with the unit; the line lies at that value.
        QCPAxisRect *rect = f.view->plot()->axisRects().at(memory);
        int lines = 0;
        for (QCPGraph *g : rect->graphs()) {
            if (g->pen().style() != Qt::DashLine) continue;
            ++lines;
            QVERIFY2(g->name().startsWith(QStringLiteral("total, each GPU")) && g->name().contains(QStringLiteral("GiB")), qPrintable(g->name()));
            QCOMPARE(g->data()->size(), 2);
            QCOMPARE(g->data()->at(0)->value, g->data()->at(1)->value);
            QVERIFY(g->data()->at(0)->value <= rect->axis(QCPAxis::atLeft)->range().upper);
        }
        QCOMPARE(lines, 1);  // both GPUs have the same total: one line, "total, each GPU"
        QVERIFY(!f.savePng(QStringLiteral("panels_utilization_memory")).isEmpty());
    }

    void noteLabelsLeaveTheBarsAlone() {
        QTemporaryDir dir;
        synth::SyntheticProfileOptions o;
        o.steps = 24;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        const std::filesystem::path trace = dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        ImportedSession imported({trace});
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(imported.store->path()));
        TimeRangeController time;
        const NsRange e = session.extent();
        time.setFullRange(e);
        StepTimeView view(SessionModels::of(&session, &time));
        view.resize(1000, 360);
        view.show();
        const RunAnalysis *a = AnalysisModel::of(&session)->analyseNow(AnalysisModel::of(&session)->runs().at(0).id);
        QVERIFY(a && !a->outliers.empty());
        // A note over the checkpoint step (an outlier, the tallest bar).
        const AnalysisStep &s = a->steps.steps[9];
        Annotation note;
        note.startNs = s.start;
        note.endNs = s.end;
        note.text = "checkpoint here: the bar and its outlier mark stay visible";
        QVERIFY(AnnotationModel::of(&session)->add(note) > 0);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        view.plot()->replot();
        QCPAxisRect *rect = view.plot()->axisRect();
        QCPGraph *outliers = nullptr;
        for (int i = 0; i < view.plot()->graphCount(); ++i)
            if (view.plot()->graph(i)->name() == QLatin1String("outlier step")) outliers = view.plot()->graph(i);
        QVERIFY(outliers && outliers->data()->size() > 0);
        const double band = rect->top() + StepTimeView::kNoteBand * rect->height();
        for (auto it = outliers->data()->constBegin(); it != outliers->data()->constEnd(); ++it) {
            const double y = view.plot()->yAxis->coordToPixel(it->value);
            QVERIFY2(y - 6 > band, qPrintable(QStringLiteral("outlier mark at %1 px, labels down to %2 px").arg(y).arg(band)));
        }
        QVERIFY(view.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/panels_steps_notes.png")));
    }
};

QTEST_MAIN(TestGuiPanelsLayout)
#include "tst_gui_panels_layout.moc"

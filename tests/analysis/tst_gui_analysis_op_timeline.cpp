// Selecting an op in the op statistics table highlights its occurrences in the timeline: the op's
// name goes into the timeline's search (as MainWindow connects them), which finds every occurrence and
// makes current the first one on screen, else the nearest one. Offscreen, on a hand-built session.

#include "models/qt/session_models.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/test_support.h"
#include "views/analysis/op_stats_view.h"
#include "views/timeline/timeline_pane_view.h"

#include <QLineEdit>
#include <QTableView>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

class TestGuiOpTimelineLink : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { isolateSettings(); }

    void selectingAnOpSearchesTheTimeline() {
        AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        f.step(1, 0, 100 * kMs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 100 * kMs);
        // gemm_kernel at 10, 40 and 70 ms; relu_kernel at 20 ms.
        for (int64_t t : {10, 40, 70}) f.slice(gpu, "gemm_kernel", "kernel", t * kMs, (t + 5) * kMs);
        f.slice(gpu, "relu_kernel", "kernel", 20 * kMs, 25 * kMs);
        f.commit();

        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        TimeRangeController time;
        const NsRange extent = session.extent();
        time.setFullRange(extent);
        const int64_t base = extent.start;  // the fixture's run starts at 0
        QCOMPARE(base, int64_t(0));

        TimelinePaneView pane(SessionModels::of(&session, &time));
        OpStatsView ops(SessionModels::of(&session, &time));
        // The connection MainWindow makes.
        connect(&ops, &OpStatsView::opSelected, &pane, [&pane](const QString &n, int) { pane.search(n); });
        pane.resize(900, 400);
        ops.resize(900, 300);
        pane.show();
        ops.show();
        QCoreApplication::processEvents();

        ops.setSide(0);  // GPU ops
        ops.setFilterText("gemm_kernel");
        QCOMPARE(ops.table()->model()->rowCount(), 1);
        // The visible range holds the second occurrence only.
        time.setRange({35 * kMs, 50 * kMs});
        ops.table()->selectRow(0);
        QTRY_VERIFY(!pane.search()->busy());  // the search runs in the background
        QCOMPARE(pane.searchField()->text(), QString("gemm_kernel"));
        QCOMPARE(pane.search()->text(), QString("gemm_kernel"));
        QCOMPARE(pane.search()->hitCount(), 3);
        QVERIFY(pane.search()->currentHit());
        QCOMPARE(pane.search()->currentHit()->startNs, 40 * kMs);
        QCOMPARE(pane.timeline()->selectedSliceId(), pane.search()->currentHit()->sliceId);

        // Nothing on screen: the nearest occurrence (70 ms is 8 ms after the range, 10-15 ms ends 40 ms before).
        ops.setFilterText("");
        ops.table()->clearSelection();
        time.setRange({55 * kMs, 62 * kMs});
        pane.search(QStringLiteral("gemm_kernel"));
        QTRY_VERIFY(!pane.search()->busy());
        QCOMPARE(pane.search()->currentHit()->startNs, 70 * kMs);
        // ... also when it lies before the range; the timeline brings it into view.
        time.setRange({16 * kMs, 18 * kMs});
        pane.search(QStringLiteral("gemm_kernel"));
        QTRY_VERIFY(!pane.search()->busy());
        QCOMPARE(pane.search()->currentHit()->startNs, 10 * kMs);
        QVERIFY(time.range().start <= 10 * kMs && time.range().end >= 15 * kMs);

        // Another op through the table.
        ops.setFilterText("relu_kernel");
        QCOMPARE(ops.table()->model()->rowCount(), 1);
        ops.table()->selectRow(0);
        QTRY_VERIFY(!pane.search()->busy());
        QCOMPARE(pane.search()->text(), QString("relu_kernel"));
        QCOMPARE(pane.search()->hitCount(), 1);
        QCOMPARE(pane.search()->currentHit()->startNs, 20 * kMs);
    }

    void kernelColumns() {
        AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        f.step(1, 0, 10 * kMs);
        f.slice(f.host, "ProfilerStep#1", "user_annotation", 0, 10 * kMs);
        f.slice(gpu, "gemm_kernel", "kernel", 1 * kMs, 2 * kMs, std::nullopt,
                "{\"grid\": [128, 2, 1], \"block\": [256, 1, 1], \"registers per thread\": 96, \"shared memory\": 49152}");
        f.commit();
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        TimeRangeController time;
        OpStatsView ops(SessionModels::of(&session, &time));
        const auto *m = ops.table()->model();
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->headerData(OpStatsTableModel::Grid, Qt::Horizontal).toString(), QString("Grid"));
        QCOMPARE(m->index(0, OpStatsTableModel::Grid).data().toString(), QString("128, 2, 1"));
        QCOMPARE(m->index(0, OpStatsTableModel::Block).data().toString(), QString("256, 1, 1"));
        QCOMPARE(m->index(0, OpStatsTableModel::Registers).data().toLongLong(), qlonglong(96));
        QCOMPARE(m->index(0, OpStatsTableModel::SharedMemory).data().toLongLong(), qlonglong(49152));
        QCOMPARE(m->index(0, OpStatsTableModel::SharedMemory).data(OpStatsTableModel::SortRole).toLongLong(), qlonglong(49152));
    }
};

QTEST_MAIN(TestGuiOpTimelineLink)
#include "tst_gui_analysis_op_timeline.moc"

// Names and advice are readable in the tables (issue #18, items 3 and 13): the op table's name column
// holds the longest kernel name at 1400 px (else its tooltip does), is user-resizable and copies the
// name; the first click on a number column sorts biggest first (op stats, range statistics); the
// findings' recommendations wrap to the panel's width instead of being cut to one line. The views
// are saved as PNGs in the build folder (panels_*.png) for looking at.

#include "models/qt/session_models.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"
#include "views/analysis/findings_view.h"
#include "views/analysis/name_column.h"
#include "views/analysis/op_stats_view.h"
#include "views/log/import_log_view.h"
#include "views/utilization/range_stats_table.h"
#include "views/utilization/utilization_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

namespace {
// A cuBLAS kernel name as the profiler records it: the ones cut to "sm…nn".
const std::string kLongKernel = "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize160x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel";

void savePng(QWidget *w, const char *name) {
    QCoreApplication::processEvents();
    QVERIFY(w->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/panels_%1.png").arg(name)));
}

// Clicks the header of `section` the way a user does.
void clickHeader(QHeaderView *header, int section) {
    const int x = header->sectionViewportPosition(section) + header->sectionSize(section) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
}
} // namespace

class TestGuiPanelsTables : public QObject {
    Q_OBJECT
    AnalysisFixture m_fixture;
    SessionModel m_session;
    TimeRangeController m_time;
    QTemporaryDir m_dir;

private slots:
    void initTestCase() {
        isolateSettings();
        // Three steps; on the GPU one long-named kernel (few, long) and short ones (many, brief).
        AnalysisFixture &f = m_fixture;
        const int64_t gpu = f.stream(0, "stream 7");
        for (int i = 0; i < 3; ++i) {
            const int64_t t = i * 100 * kMs;
            f.step(i + 1, t, t + 100 * kMs);
            f.slice(f.host, "aten::linear", "cpu_op", t, t + 30 * kMs);
            f.slice(gpu, kLongKernel, "kernel", t + 2 * kMs, t + 40 * kMs);
            for (int k = 0; k < 5; ++k) f.slice(gpu, "elementwise", "kernel", t + (41 + k) * kMs, t + (41 + k) * kMs + 200 * kUs);
        }
        f.commit();
        m_session.setStore(std::make_unique<SessionStore>(f.store().path()));
        const NsRange e = m_session.extent();
        m_time.setFullRange(e);
    }

    // A CPU-only run (issue #35): the op table shows its host ops instead of an empty "GPU ops" list.
    void cpuOnlyRunShowsHostOps() {
        AnalysisFixture f;
        for (int i = 0; i < 3; ++i) {
            const int64_t t = i * 100 * kMs;
            f.step(i + 1, t, t + 100 * kMs);
            f.slice(f.host, "MatMul", "cpu_op", t, t + 60 * kMs);
        }
        f.commit();
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        TimeRangeController time;
        time.setFullRange(session.extent());
        OpStatsView view(SessionModels::of(&session, &time));
        view.setVisibleRangeOnly(false);
        QTRY_VERIFY(view.table()->model()->rowCount() >= 1);
        auto *side = view.findChild<QComboBox *>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(side);
        QCOMPARE(view.table()->model()->index(0, OpStatsTableModel::Name).data().toString(), QStringLiteral("MatMul"));
    }

    // An Import log message is never cut ("0 synchronizations, …", issue #35 item 10): it wraps in
    // its column, and its tooltip holds it whole.
    void importLogMessagesWrap() {
        AnalysisFixture f;
        f.step(1, 0, 100 * kMs);
        const std::string message =
            "0 synchronizations, 3 memcpy calls and 12 kernels had no correlation id: their launches are not linked to the GPU "
            "work they started, so the critical path and the launch overhead leave them out";
        f.writer().log(std::nullopt, Severity::Warning, ImportLogCode::UnboundFlow, "/trace.json", "line 3", message);
        f.commit();
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        ImportLogView view(&session);
        view.resize(700, 300);
        view.show();
        QCoreApplication::processEvents();
        QCOMPARE(view.rowCount(), 1);
        QCOMPARE(view.item(0, 1)->text(), QStringLiteral("unbound_flow"));
        QCOMPARE(view.item(0, ImportLogView::kMessageColumn)->text(), QString::fromStdString(message));
        QVERIFY(view.item(0, ImportLogView::kMessageColumn)->toolTip().contains(QStringLiteral("critical path and the launch overhead leave them out")));
        const int lineHeight = view.fontMetrics().height();
        QTRY_VERIFY2(view.rowHeight(0) >= 2 * lineHeight,
                     qPrintable(QStringLiteral("row %1 px, a line %2 px").arg(view.rowHeight(0)).arg(lineHeight)));
        savePng(&view, "import_log");
    }

    void opNameColumnShowsTheWholeName() {
        OpStatsView view(SessionModels::of(&m_session, &m_time));
        view.resize(1400, 400);
        view.show();
        QTRY_VERIFY(view.table()->model()->rowCount() >= 2);
        QCoreApplication::processEvents();
        QTableView *t = view.table();
        const QString longName = QString::fromStdString(kLongKernel);
        const int textWidth = t->fontMetrics().horizontalAdvance(longName);
        int row = -1;
        for (int r = 0; r < t->model()->rowCount(); ++r)
            if (t->model()->index(r, OpStatsTableModel::Name).data().toString() == longName) row = r;
        QVERIFY(row >= 0);
        const bool whole = t->columnWidth(OpStatsTableModel::Name) >= textWidth;
        const bool tooltip = t->model()->index(row, OpStatsTableModel::Name).data(Qt::ToolTipRole).toString() == longName;
        QVERIFY2(whole || tooltip, qPrintable(QStringLiteral("name column %1 px, name %2 px").arg(t->columnWidth(0)).arg(textWidth)));
        // At 1400 px there is room for it: no elision at all.
        QVERIFY2(whole, qPrintable(QStringLiteral("name column %1 px < name %2 px").arg(t->columnWidth(0)).arg(textWidth)));
        QCOMPARE(t->horizontalHeader()->sectionResizeMode(OpStatsTableModel::Name), QHeaderView::Interactive);
        QCOMPARE(t->textElideMode(), Qt::ElideMiddle);
        savePng(&view, "op_stats");
        // Copy takes the whole name, whatever the column shows.
        t->setCurrentIndex(t->model()->index(row, OpStatsTableModel::Count));
        view.nameColumn()->copyCurrent();
        QCOMPARE(QApplication::clipboard()->text(), longName);
        // A user's width is kept.
        t->horizontalHeader()->resizeSection(OpStatsTableModel::Name, 222);
        view.nameColumn()->fit();
        QCOMPARE(t->columnWidth(OpStatsTableModel::Name), 222);
    }

    void firstClickOnANumberSortsDescending() {
        OpStatsView view(SessionModels::of(&m_session, &m_time));
        view.resize(1400, 400);
        view.show();
        QTRY_VERIFY(view.table()->model()->rowCount() >= 2);
        QHeaderView *header = view.table()->horizontalHeader();
        // Whatever the style's default for a new section (Fusion's and Windows' differ), the model says.
        const QAbstractItemModel *m = view.table()->model();
        QCOMPARE(m->headerData(OpStatsTableModel::Count, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(), int(Qt::DescendingOrder));
        QCOMPARE(m->headerData(OpStatsTableModel::Name, Qt::Horizontal, Qt::InitialSortOrderRole).toInt(), int(Qt::AscendingOrder));
        clickHeader(header, OpStatsTableModel::Count);
        QCOMPARE(header->sortIndicatorSection(), int(OpStatsTableModel::Count));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(view.table()->model()->index(0, OpStatsTableModel::Name).data().toString(), QStringLiteral("elementwise"));
        clickHeader(header, OpStatsTableModel::Name);
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);  // text: A to Z
        clickHeader(header, OpStatsTableModel::Total);
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(view.table()->model()->index(0, OpStatsTableModel::Name).data().toString(), QString::fromStdString(kLongKernel));
    }

    void rangeTableNamesAndSorting() {
        RangeStatsTable table;
        std::vector<SeriesRangeStats> stats;
        const UnitScale percent = MetricUnits::scaleFor(QStringLiteral("%"), 100);
        const QString longLabel = QStringLiteral("Profiler-reported utilization of the tensor cores on GPU 0");
        auto row = [&](const QString &label, double max) {
            SeriesRangeStats s;
            s.panel = QStringLiteral("GPU utilization");
            s.label = label;
            s.period = QStringLiteral("every 1 s");
            s.stats.count = 10;
            s.stats.min = 0;
            s.stats.mean = max / 2;
            s.stats.max = max;
            s.scale = percent;
            stats.push_back(s);
        };
        for (int i = 0; i < 9; ++i) row(QStringLiteral("GPU %1").arg(i), 9 + i * 10);  // 9 % .. 89 %
        row(longLabel, 100);  // the last row: out of view in a six-row table
        table.resize(1000, 300);
        table.show();
        table.setStats(QStringLiteral("Selection"), stats);
        QCoreApplication::processEvents();
        QTableWidget *t = table.table();
        const int textWidth = t->fontMetrics().horizontalAdvance(longLabel);
        QVERIFY2(t->columnWidth(1) >= textWidth, qPrintable(QStringLiteral("%1 < %2").arg(t->columnWidth(1)).arg(textWidth)));
        QCOMPARE(t->item(9, 1)->toolTip(), longLabel);
        // Max, first click: biggest first, by value ("100 %" before "89 %", though "1" < "8").
        clickHeader(t->horizontalHeader(), 6);
        QCOMPARE(t->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(t->item(0, 1)->text(), longLabel);
        QCOMPARE(t->item(1, 1)->text(), QStringLiteral("GPU 8"));
        QCOMPARE(t->item(9, 1)->text(), QStringLiteral("GPU 0"));
        // New statistics keep their sort.
        table.setStats(QStringLiteral("Selection"), stats);
        QCOMPARE(t->item(0, 1)->text(), longLabel);
    }

    void recommendationsWrap() {
        synth::SyntheticProfileOptions o;
        o.steps = 24;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        const std::filesystem::path trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        const std::string file = m_dir.filePath("ckpt.stepscope").toStdString();
        {
            SessionStore store(file);
            std::ostringstream out, err;
            cli::importInto(store, {trace}, {out, err, false});
        }
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(file));
        FindingsView view(SessionModels::of(&session, &m_time));
        view.resize(520, 600);  // a Findings dock beside the step bars at 1024 px
        view.show();
        view.tree()->expandAll();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QTreeWidget *tree = view.tree();
        int advice = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it) {
            QTreeWidgetItem *item = *it;
            if (item->text(0) != QLatin1String("do")) continue;
            ++advice;
            const QModelIndex index = tree->indexFromItem(item, 1);
            const QRect cell = tree->visualRect(index);
            const int column = tree->columnWidth(1);
            const QRect wrapped = tree->fontMetrics().boundingRect(QRect(0, 0, column - 8, 1 << 20), Qt::TextWordWrap, item->text(1));
            QVERIFY2(cell.height() >= wrapped.height(),
                     qPrintable(QStringLiteral("row %1 px, text %2 px: %3").arg(cell.height()).arg(wrapped.height()).arg(item->text(1))));
        }
        QVERIFY2(advice > 0, "the checkpoint run has advice");
        QVERIFY(tree->wordWrap());
        // At this width at least one recommendation needs more than one line, and gets it.
        bool multiLine = false;
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if ((*it)->text(0) == QLatin1String("do"))
                multiLine = multiLine || tree->visualRect(tree->indexFromItem(*it, 1)).height() > 2 * tree->fontMetrics().height();
        QVERIFY(multiLine);
        savePng(&view, "findings");

        // A narrow Findings dock (1024×700 window): the severity word still fits two levels deep,
        // and titles get the most room instead of wrapping letter by letter.
        view.resize(360, 600);
        QCoreApplication::processEvents();
        const int severityText = 2 * tree->indentation() + tree->fontMetrics().horizontalAdvance(QStringLiteral("medium"));
        QVERIFY2(tree->columnWidth(0) >= severityText, qPrintable(QString::number(tree->columnWidth(0))));
        QVERIFY2(tree->columnWidth(1) > tree->columnWidth(0) && tree->columnWidth(1) > tree->columnWidth(2),
                 qPrintable(QStringLiteral("%1 %2 %3").arg(tree->columnWidth(0)).arg(tree->columnWidth(1)).arg(tree->columnWidth(2))));

        // A short Findings dock (1280×720, issue #35 item 3): the verdict takes at most a quarter of
        // it (scrolling beyond), the findings the rest; collapsed, the verdict is one line.
        view.setVerdictExpanded(true);
        view.resize(420, 240);
        QCoreApplication::processEvents();
        QVERIFY2(view.verdictArea()->height() <= 240 / 4,
                 qPrintable(QStringLiteral("verdict %1 px of 240").arg(view.verdictArea()->height())));
        QVERIFY2(tree->height() >= 240 / 2, qPrintable(QStringLiteral("findings %1 px of 240").arg(tree->height())));
        savePng(&view, "findings_short");
        view.setVerdictExpanded(false);
        QCoreApplication::processEvents();
        QVERIFY2(view.verdictArea()->height() <= 2 * view.fontMetrics().lineSpacing(), qPrintable(QString::number(view.verdictArea()->height())));
        QVERIFY(QSettings().value("findings/verdictExpanded").toBool() == false);  // remembered
        savePng(&view, "findings_short_collapsed");
        view.setVerdictExpanded(true);
    }
};

QTEST_MAIN(TestGuiPanelsTables)
#include "tst_gui_panels_tables.moc"

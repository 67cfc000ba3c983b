// #35 item 14: an 8-rank job's Utilization drew 16 nearly identical coloured series in one panel,
// and its legend ran out of the chart. A panel of more than four series from several ranks is drawn
// grouped: every rank thin and grey under the ranks' mean, one rank in colour (bold, named in the
// legend) while the pointer is near its line or when picked in the header's Rank box, which is
// remembered. Panels with few series stay as they were; no legend title or entry is cut.
#include "tests/test_support.h"
#include "views/utilization/utilization_view.h"

#include <QComboBox>
#include <QLabel>
#include <QSettings>
#include <QtTest>
#include <qcustomplot.h>

using namespace stepscope;

namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kSec = 1'000'000'000;
constexpr int kRanks = 8;
constexpr int kSamples = 3000;  // more than the panel is wide: drawn as per-pixel columns

double utilOf(int rank) { return 20.0 + 10.0 * rank; }  // each rank's line at its own height

MetricSeries series(int64_t id, int rank, const std::string &name, const std::string &unit, int64_t period, double value) {
    std::vector<int64_t> t(kSamples);
    std::vector<float> v(kSamples);
    for (int i = 0; i < kSamples; ++i) {
        t[size_t(i)] = kT0 + int64_t(i) * kSec;
        v[size_t(i)] = float(value);
    }
    return {{id, rank + 1, "rank-" + std::to_string(rank), name, unit, 0, period, {}}, MetricLod(t, v)};
}

// An 8-rank job: per rank GPU utilization and the allocator's allocated / reserved memory (16
// series in one panel); host memory from rank 0 alone (one series: a panel as before).
std::vector<MetricSeries> eightRanks() {
    std::vector<MetricSeries> out;
    int64_t id = 1;
    for (int r = 0; r < kRanks; ++r) {
        out.push_back(series(id++, r, "gpu_util", "%", kSec, utilOf(r)));
        out.push_back(series(id++, r, "gpu_mem_allocated", "B", 0, 4e9 + 1e8 * r));
        out.push_back(series(id++, r, "gpu_mem_reserved", "B", 0, 6e9 + 1e8 * r));
    }
    MetricSeries host = series(id++, 0, "host_mem_used", "B", kSec, 3e10);
    host.info.device.reset();
    out.push_back(std::move(host));
    return out;
}

bool grey(const QCPGraph *g) { return g->pen().color() == QColor(0xc4, 0xc4, 0xc4); }

QList<QCPGraph *> graphsOf(QCPAxisRect *rect) {
    QList<QCPGraph *> out;
    for (QCPGraph *g : rect->graphs()) out << g;
    return out;
}

QString runOf(const MetricSeriesModel &m, const UtilizationView &v, size_t p, size_t i) {
    return QString::fromStdString(m.series(v.panels()[p].series[i]).info.run);
}

// Nothing of a panel's legend column is cut: the title's text fits its rect, every entry fits the
// legend's width, and the legend ends inside its chart's row and the plot.
void verifyLegendsWhole(UtilizationView &view) {
    QCustomPlot *plot = view.plot();
    plot->replot();
    for (int p = 0; p < int(view.panels().size()); ++p) {
        QCPLayoutGrid *side = qobject_cast<QCPLayoutGrid *>(plot->plotLayout()->element(p, 1));
        QVERIFY(side);
        auto *title = qobject_cast<QCPTextElement *>(side->element(0, 0));
        auto *legend = qobject_cast<QCPLegend *>(side->element(1, 0));
        QVERIFY(title && legend);
        QFont bold = title->font();
        const int text = QFontMetrics(bold).horizontalAdvance(title->text());
        QVERIFY2(text + title->margins().left() <= title->outerRect().width(), qPrintable(title->text()));
        QVERIFY2(title->outerRect().right() <= plot->viewport().right() + 1, qPrintable(title->text()));
        for (int k = 0; k < legend->itemCount(); ++k) {
            QCPAbstractLegendItem *item = legend->item(k);
            const QSize need = static_cast<QCPLayoutElement *>(item)->minimumOuterSizeHint();
            QVERIFY2(need.width() <= item->outerRect().width() + 1, qPrintable(QString::number(p) + ": entry too narrow"));
            QVERIFY2(item->outerRect().right() <= plot->viewport().right() + 1, "entry beyond the plot");
        }
        QCPAxisRect *rect = plot->axisRects().at(p);
        const int rowBottom = p + 1 < int(view.panels().size()) ? plot->axisRects().at(p + 1)->outerRect().top()
                                                                : plot->viewport().bottom() + 1;
        QVERIFY2(legend->outerRect().bottom() <= rowBottom + 1,
                 qPrintable(QStringLiteral("panel %1: legend ends at %2, its row at %3").arg(p).arg(legend->outerRect().bottom()).arg(rowBottom)));
        QVERIFY(rect->outerRect().bottom() <= rowBottom + 1);
    }
}

} // namespace

class TestUtilizationRanks : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        test::isolateSettings();
        QSettings().clear();
    }

    void eightRanksDrawTheirMeanAndGreyRanks() {
        MetricSeriesModel metrics;
        metrics.setSeries(eightRanks());
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        QStringList keys;
        for (const UtilizationPanel &p : view.panels()) keys << p.key;
        QCOMPARE(keys, QStringList({"gpu_util", "gpu_mem_alloc", "host_mem"}));
        QVERIFY(view.panelGrouped(0) && view.panelGrouped(1));
        QVERIFY(!view.panelGrouped(2));
        QCOMPARE(view.members(), QStringList({"rank-0", "rank-1", "rank-2", "rank-3", "rank-4", "rank-5", "rank-6", "rank-7"}));
        auto *box = view.findChild<QComboBox *>(QStringLiteral("utilizationMember"));
        QVERIFY(box && box->isVisible());
        QCOMPARE(box->count(), kRanks + 1);
        QCOMPARE(view.highlightedMember(), QString());

        // The 16-series panel: 16 grey ranks and the two means in colour, only the means in the legend.
        const QList<QCPGraph *> memory = graphsOf(view.plot()->axisRects().at(1));
        QCOMPARE(memory.size(), 2 * kRanks + 2);
        QCOMPARE(int(std::count_if(memory.begin(), memory.end(), grey)), 2 * kRanks);
        auto *legend = qobject_cast<QCPLegend *>(qobject_cast<QCPLayoutGrid *>(view.plot()->plotLayout()->element(1, 1))->element(1, 0));
        QCOMPARE(legend->itemCount(), 2);
        const QList<QCPGraph *> util = graphsOf(view.plot()->axisRects().at(0));
        QCOMPARE(util.size(), kRanks + 1);
        QCPGraph *mean = util.last();
        QVERIFY(!grey(mean));
        QVERIFY2(mean->name().startsWith(QStringLiteral("mean of 8 ranks")), qPrintable(mean->name()));
        // The mean line is the ranks' mean: 20, 30, ... 90 % → 55 %, in every column.
        QVERIFY(mean->data()->size() > 500);
        for (int k = 0; k < mean->data()->size(); k += 97) QCOMPARE(mean->data()->at(k)->value, 55.0);
        // Hovering shows the mean and the ranks' range at the instant.
        view.showCrosshair(kT0 + 100 * kSec);
        QVERIFY2(mean->name().contains(QStringLiteral("55.0")) && mean->name().contains(QStringLiteral("20.0–90.0")), qPrintable(mean->name()));
        view.showCrosshair(std::nullopt);
        // The one-series panel as before: its colour, in the legend.
        QCPGraph *host = graphsOf(view.plot()->axisRects().at(2)).front();
        QVERIFY(!grey(host));
        QVERIFY2(host->name().startsWith(QStringLiteral("rank-0 · used")), qPrintable(host->name()));
        verifyLegendsWhole(view);
        QVERIFY(QDir().mkpath(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output")));
        QVERIFY(view.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/utilization_ranks.png")));
        // A narrow dock: the header wraps beside the Rank box, nothing overlaps.
        view.resize(760, 560);
        QTest::qWait(20);
        auto *header = view.findChild<QLabel *>(QStringLiteral("utilizationHeader"));
        QVERIFY(header->geometry().right() < box->geometry().left());
        QVERIFY(header->height() >= header->heightForWidth(header->width()));
        QVERIFY(view.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/utilization_ranks_narrow.png")));
    }

    void pickingRankFiveDrawsItInColour() {
        QSettings().remove(QStringLiteral("utilization/member"));
        MetricSeriesModel metrics;
        metrics.setSeries(eightRanks());
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        auto view = std::make_unique<UtilizationView>(&metrics, &time);
        view->resize(1280, 720);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        view->refresh();
        auto *box = view->findChild<QComboBox *>(QStringLiteral("utilizationMember"));
        const int five = box->findText(QStringLiteral("rank-5"));
        QVERIFY(five > 0);
        box->setCurrentIndex(five);
        emit box->activated(five);  // what a user's pick does
        QCOMPARE(view->chosenMember(), QStringLiteral("rank-5"));
        QCOMPARE(view->highlightedMember(), QStringLiteral("rank-5"));
        QCOMPARE(QSettings().value(QStringLiteral("utilization/member")).toString(), QStringLiteral("rank-5"));
        // In both grouped panels rank 5's series alone are in colour, bold, above the rest, in the legend.
        for (size_t p : {size_t(0), size_t(1)}) {
            int lit = 0;
            for (size_t i = 0; i < view->panels()[p].series.size(); ++i) {
                QCPGraph *g = view->plot()->axisRects().at(int(p))->graphs().at(int(i));
                const bool five5 = runOf(metrics, *view, p, i) == QLatin1String("rank-5");
                QCOMPARE(view->isHighlighted(p, i), five5);
                QCOMPARE(grey(g), !five5);
                if (!five5) continue;
                ++lit;
                QVERIFY(g->pen().widthF() >= 2.0);
                QCOMPARE(g->layer()->name(), QStringLiteral("highlight"));
                QVERIFY2(g->name().startsWith(QStringLiteral("rank-5 · GPU")), qPrintable(g->name()));
            }
            QCOMPARE(lit, p == 0 ? 1 : 2);
        }
        auto *legend = qobject_cast<QCPLegend *>(qobject_cast<QCPLayoutGrid *>(view->plot()->plotLayout()->element(1, 1))->element(1, 0));
        QCOMPARE(legend->itemCount(), 4);  // two means, rank 5's allocated and reserved
        verifyLegendsWhole(*view);
        view->showCrosshair(kT0 + 100 * kSec);  // the longest names: values under the pointer
        verifyLegendsWhole(*view);
        view->showCrosshair(std::nullopt);
        QVERIFY(QDir().mkpath(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output")));
        QVERIFY(view->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/utilization_rank5.png")));

        // Hovering near rank 2's line draws rank 2 instead while the pointer stays; leaving, rank 5 again.
        QCPAxisRect *rect = view->plot()->axisRects().at(0);
        const QPoint near2(rect->center().x(), int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(utilOf(2)))) + 2);
        QCOMPARE(view->memberNear(near2), QStringLiteral("rank-2"));
        QTest::mouseMove(view->plot(), near2);
        QCOMPARE(view->highlightedMember(), QStringLiteral("rank-2"));
        QCOMPARE(view->chosenMember(), QStringLiteral("rank-5"));
        const QPoint between(rect->center().x(), int(std::lround(rect->axis(QCPAxis::atLeft)->coordToPixel(utilOf(2) + 5))));
        QCOMPARE(view->memberNear(between), QString());  // 5 % from both lines: neither
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(view->plot(), &leave);
        QCOMPARE(view->highlightedMember(), QStringLiteral("rank-5"));

        // Remembered: a new view starts with rank 5; "all ranks" puts it back to the summary alone.
        view = std::make_unique<UtilizationView>(&metrics, &time);
        QCOMPARE(view->chosenMember(), QStringLiteral("rank-5"));
        view->chooseMember(QString());
        QCOMPARE(view->highlightedMember(), QString());
        QCOMPARE(QSettings().value(QStringLiteral("utilization/member")).toString(), QString());
        for (QCPGraph *g : graphsOf(view->plot()->axisRects().at(0)).mid(0, kRanks)) QVERIFY(grey(g));

        // Headless pictures (export) apply no remembered rank and remember none.
        view->chooseMember(QStringLiteral("rank-5"));
        view = std::make_unique<UtilizationView>(&metrics, &time);
        view->setRemembersMember(false);
        QCOMPARE(view->highlightedMember(), QString());
        view->chooseMember(QStringLiteral("rank-3"));
        QCOMPARE(view->highlightedMember(), QStringLiteral("rank-3"));
        QCOMPARE(QSettings().value(QStringLiteral("utilization/member")).toString(), QStringLiteral("rank-5"));
    }

    void fourGpusStayAsTheyWere() {
        std::vector<MetricSeries> four;
        for (int d = 0; d < 4; ++d) {
            MetricSeries s = series(d + 1, 0, "gpu_util", "%", kSec, utilOf(d));
            s.info.device = d;
            four.push_back(std::move(s));
        }
        MetricSeriesModel metrics;
        metrics.setSeries(std::move(four));
        TimeRangeController time;
        time.setFullRange(metrics.extent());
        UtilizationView view(&metrics, &time);
        view.resize(1280, 720);
        QVERIFY(!view.panelGrouped(0));
        QVERIFY(view.members().isEmpty());
        QVERIFY(!view.findChild<QComboBox *>(QStringLiteral("utilizationMember"))->isVisibleTo(&view));
        const QList<QCPGraph *> graphs = graphsOf(view.plot()->axisRects().at(0));
        QCOMPARE(graphs.size(), 4);
        for (QCPGraph *g : graphs) QVERIFY(!grey(g));
    }
};

QTEST_MAIN(TestUtilizationRanks)
#include "tst_utilization_ranks.moc"

// ColumnEnvelopeGraph paints, column by column, the pixels QCPGraph's own 1 px aliased line paints
// for the same points (dense min/max zigzags, steps, gaps, values off the axis); it keeps QCPGraph's
// drawing for antialiased or wide pens; columnRuns() covers every point of the line.

#include "views/utilization/column_envelope_graph.h"

#include <QApplication>
#include <QtTest>

#include <climits>
#include <random>

using namespace stepscope;

namespace {

constexpr QRgb kLine = 0xff1f77b4;

// The rows painted in line colour per column of the plot's axis rect (-1, -1: none).
std::vector<std::pair<int, int>> paintedRows(QCustomPlot &plot) {
    plot.replot();
    const QImage image = plot.grab().toImage().convertToFormat(QImage::Format_ARGB32);
    const QRect rect = plot.axisRect()->rect();
    std::vector<std::pair<int, int>> rows;
    for (int x = rect.left(); x <= rect.right(); ++x) {
        int top = -1, bottom = -1;
        for (int y = rect.top(); y <= rect.bottom(); ++y)
            if (image.pixel(x, y) == kLine) {
                if (top < 0) top = y;
                bottom = y;
            }
        rows.emplace_back(top, bottom);
    }
    return rows;
}

struct Plots {
    QCustomPlot reference, envelope;
    QCPGraph *plain, *fast;
    Plots() {
        for (QCustomPlot *p : {&reference, &envelope}) {
            p->resize(420, 220);
            p->setPlottingHint(QCP::phFastPolylines, true);
            p->xAxis->grid()->setVisible(false);
            p->yAxis->grid()->setVisible(false);
            p->xAxis->setRange(0, 100);
            p->yAxis->setRange(0, 100);
            p->replot();  // lays out the axis rect
        }
        plain = reference.addGraph();
        fast = new ColumnEnvelopeGraph(envelope.xAxis, envelope.yAxis);
        for (QCPGraph *g : {plain, fast}) {
            QPen pen{QColor::fromRgb(kLine), 1.0};
            pen.setCosmetic(true);
            g->setPen(pen);
            g->setAntialiased(false);
            g->setAdaptiveSampling(false);
        }
    }
    void setData(const QVector<QCPGraphData> &points, QCPGraph::LineStyle style) {
        for (QCPGraph *g : {plain, fast}) {
            g->setLineStyle(style);
            g->data()->set(points, true);
        }
    }
};

// Per column, the envelope's run may differ from QCPGraph's by at most one row at either end (the
// two round sub-pixel positions differently); columns QCPGraph leaves empty stay empty, and the
// other way round, except next to a painted column.
void compareWithReference(Plots &plots, const char *what) {
    const auto want = paintedRows(plots.reference), got = paintedRows(plots.envelope);

    QCOMPARE(got.size(), want.size());
    int painted = 0;
    for (size_t c = 0; c < want.size(); ++c) {
        const bool wantAny = want[c].first >= 0, gotAny = got[c].first >= 0;
        const auto neighbourPainted = [&](const std::vector<std::pair<int, int>> &v) {
            return (c > 0 && v[c - 1].first >= 0) || (c + 1 < v.size() && v[c + 1].first >= 0);
        };
        if (wantAny != gotAny) {
            QVERIFY2(neighbourPainted(wantAny ? got : want), qPrintable(QStringLiteral("%1: column %2").arg(what).arg(c)));
            continue;
        }
        if (!wantAny) continue;
        ++painted;
        QVERIFY2(std::abs(got[c].first - want[c].first) <= 1 && std::abs(got[c].second - want[c].second) <= 1,
                 qPrintable(QStringLiteral("%1: column %2 rows %3-%4, QCPGraph %5-%6")
                                .arg(what).arg(c).arg(got[c].first).arg(got[c].second).arg(want[c].first).arg(want[c].second)));
    }
    QVERIFY(painted > int(want.size()) / 2);
}

} // namespace

class TstColumnEnvelopeGraph : public QObject {
    Q_OBJECT
private slots:
    void densePairsPaintWhatQCPGraphPaints() {
        Plots plots;
        const int width = plots.reference.axisRect()->width();
        QCOMPARE(plots.envelope.axisRect()->width(), width);
        // Two points per pixel column, the extremes of a noisy walk, as SeriesPlotData makes them.
        std::mt19937 rng(5);
        QVector<QCPGraphData> points;
        double x = 50;
        for (int k = 0; k < width; ++k) {
            const double a = std::clamp(x + double(int(rng() % 41) - 20), -10.0, 110.0);
            x = std::clamp(a + double(int(rng() % 41) - 20), -10.0, 110.0);
            const double key = 100.0 * k / width;
            points.append({key + 100.0 / width * 0.25, std::min(a, x)});
            points.append({key + 100.0 / width * 0.75, std::max(a, x)});
            if (k == width / 3) points.append({key + 100.0 / width * 0.9, qQNaN()});  // a gap
        }
        plots.setData(points, QCPGraph::lsLine);
        compareWithReference(plots, "dense");
    }

    void stepsPaintWhatQCPGraphPaints() {
        Plots plots;
        std::mt19937 rng(11);
        QVector<QCPGraphData> points;
        for (int i = 0; i < 260; ++i) points.append({-2 + i * 0.41, double(int(rng() % 100))});
        plots.setData(points, QCPGraph::lsStepLeft);
        compareWithReference(plots, "steps");
    }

    void columnRunsCoverTheLine() {
        // A vertical jump, a 45° slope, a break, a point alone, a vertical run after rounding.
        const QVector<QPointF> line = {{1, 10}, {1, 2}, {5, 6}, {qQNaN(), qQNaN()}, {7, 3}, {qQNaN(), qQNaN()}, {8.2, 1}, {8.4, 5}};
        const auto runs = ColumnEnvelopeGraph::columnRuns(line, QRect(0, 0, 10, 12));
        QCOMPARE(int(runs.size()), 10);
        QVERIFY(runs[0].top > runs[0].bottom);  // nothing there
        QCOMPARE(runs[1].top, 2);
        QCOMPARE(runs[1].bottom, 10);
        for (int c = 2; c <= 5; ++c) {
            QCOMPARE(runs[size_t(c)].top, c + 1);
            QCOMPARE(runs[size_t(c)].bottom, c + 1);
        }
        QVERIFY(runs[6].top > runs[6].bottom);  // the break
        QVERIFY(runs[7].top > runs[7].bottom);  // a point alone draws nothing, as in QCPGraph
        QCOMPARE(runs[8].top, 1);
        QCOMPARE(runs[8].bottom, 5);
        // A steep slope: each row goes to the column its position floors to.
        const auto steep = ColumnEnvelopeGraph::columnRuns({{0, 0}, {2, 8}}, QRect(0, 0, 4, 12));
        QCOMPARE((std::vector<int>{steep[0].top, steep[0].bottom, steep[1].top, steep[1].bottom, steep[2].top, steep[2].bottom}),
                 (std::vector<int>{0, 3, 4, 7, 8, 8}));
        // HiDPI: device pixels, twice as many columns and rows.
        const auto hidpi = ColumnEnvelopeGraph::columnRuns({{0, 1}, {4, 1}}, QRect(0, 0, 5, 5), 2);
        QCOMPARE(int(hidpi.size()), 10);
        for (int c = 0; c <= 8; ++c) QCOMPARE(hidpi[size_t(c)].top, 2);
        QVERIFY(hidpi[9].top > hidpi[9].bottom);
        // Values far off the axis are clamped to just outside the area.
        const auto far = ColumnEnvelopeGraph::columnRuns({{1.5, -1e12}, {1.7, 1e12}}, QRect(0, 0, 4, 12));
        QCOMPARE(far[2].top, -1);
        QCOMPARE(far[2].bottom, 12);
    }

    // A highlighted rank's 2 px line: each column's run grows a row down and spreads to the next
    // column; empty columns stay empty unless a neighbour spreads into them.
    void thickenedRunsCoverTheNeighbours() {
        using Run = ColumnEnvelopeGraph::ColumnRun;
        const std::vector<Run> runs = {{3, 3}, {INT_MAX, INT_MIN}, {5, 7}, {INT_MAX, INT_MIN}, {INT_MAX, INT_MIN}};
        const auto bold = ColumnEnvelopeGraph::thicken(runs, 1);
        QCOMPARE(bold.size(), runs.size());
        QCOMPARE(bold[0].top, 3);
        QCOMPARE(bold[0].bottom, 4);
        QCOMPARE(bold[1].top, 3);  // from column 0
        QCOMPARE(bold[1].bottom, 4);
        QCOMPARE(bold[2].top, 5);
        QCOMPARE(bold[2].bottom, 8);
        QCOMPARE(bold[3].top, 5);  // from column 2
        QCOMPARE(bold[3].bottom, 8);
        QVERIFY(bold[4].top > bold[4].bottom);
        const auto same = ColumnEnvelopeGraph::thicken(runs, 0);
        for (size_t c = 0; c < runs.size(); ++c) QCOMPARE(same[c].top, runs[c].top);
    }

    void antialiasedLinesDrawAsQCPGraph() {
        Plots plots;
        QVector<QCPGraphData> points;
        for (int i = 0; i <= 20; ++i) points.append({i * 5.0, double((i * 37) % 100)});
        plots.setData(points, QCPGraph::lsLine);
        for (QCPGraph *g : {plots.plain, plots.fast}) {
            g->setAntialiased(true);
            g->setPen(QPen(QColor::fromRgb(kLine), 1.6));
        }
        plots.reference.replot();
        plots.envelope.replot();
        QCOMPARE(plots.envelope.grab().toImage(), plots.reference.grab().toImage());
    }
};

QTEST_MAIN(TstColumnEnvelopeGraph)
#include "tst_column_envelope_graph.moc"

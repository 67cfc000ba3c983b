// #35 item 11: note labels were cut ("…(s…") on the timeline with room to spare. A label is as wide
// as its text up to half the area (at least AnnotationPainter::kMaxLabelWidth), so a 60-character
// note is drawn whole on a wide view and cut only on a narrow one; the whole text is the tooltip.
#include "models/qt/session_models.h"
#include "models/annotations/annotation_model.h"
#include "tests/analysis/analysis_fixture.h"
#include "views/annotations/annotation_painter.h"
#include "views/annotations/annotation_plot_layer.h"
#include "views/steps/step_time_view.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QtTest>

using namespace stepscope;

namespace {
// The label's width for `text` drawn over an area `width` px wide.
double labelWidth(const std::string &text, int width) {
    QImage image(width, 200, QImage::Format_ARGB32);
    QPainter p(&image);
    Annotation a;
    a.id = 1;
    a.startNs = 100;
    a.endNs = 200;
    a.text = text;
    std::vector<AnnotationHit> hits;
    AnnotationPainter::paint(p, std::vector<Annotation>{a}, QRect(0, 0, width, 200), [](int64_t t) { return double(t); }, &hits);
    for (const AnnotationHit &h : hits)
        if (h.label) return h.rect.width();
    return 0;
}
} // namespace

class TestNoteLabels : public QObject {
    Q_OBJECT
private slots:
    void wholeWhenThereIsRoom() {
        const std::string text = "checkpoint every 3rd step: torch.save to /mnt/nfs (synchronous, blocks the loop)";
        QFont font;  // what a QImage painter starts with
        font.setPointSizeF(9);
        font.setBold(true);
        const double advance = QFontMetricsF(font).horizontalAdvance(QString::fromStdString(text));
        QVERIFY(advance + 14 > AnnotationPainter::kMaxLabelWidth);  // the old cap would cut it
        QVERIFY2(labelWidth(text, 1800) >= advance + 12, qPrintable(QString::number(labelWidth(text, 1800))));
        QVERIFY(labelWidth(text, 600) <= 600);  // a narrow view still bounds it
    }

    // The step chart (re-walk of #35): a note on the last step ends at its step instead of running
    // past the chart's edge, and hovering its label gives the whole note.
    void stepChartLabelStaysInside() {
        using test::kMs;
        test::AnalysisFixture f;
        for (int i = 0; i < 10; ++i) {
            f.step(i + 1, i * 100 * kMs, (i + 1) * 100 * kMs);
            f.slice(f.host, "aten::mm", "cpu_op", i * 100 * kMs, i * 100 * kMs + 60 * kMs);
        }
        f.commit();
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        TimeRangeController time;
        time.setFullRange(session.extent());
        StepTimeView view(SessionModels::of(&session, &time));
        view.resize(900, 320);
        view.show();
        QTRY_VERIFY(view.annotations());
        Annotation a;
        a.startNs = 950 * kMs;  // on step 10, the chart's last
        a.endNs = 950 * kMs;
        a.text = "checkpoint every 10th step: torch.save to /mnt/nfs blocks the loop for almost a second";
        AnnotationModel::of(&session)->add(a);
        QTRY_VERIFY(view.annotations()->itemCount() > 0);
        QCoreApplication::processEvents();
        QCustomPlot *plot = view.findChild<QCustomPlot *>();
        QVERIFY(plot);
        plot->replot();
        QCPItemText *label = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *t = qobject_cast<QCPItemText *>(plot->item(i)); t && !t->text().isEmpty()) label = t;
        QVERIFY(label);
        const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
        QVERIFY2(box.right() <= plot->axisRect()->rect().right() + 1,
                 qPrintable(QStringLiteral("label ends at %1, chart at %2").arg(box.right()).arg(plot->axisRect()->rect().right())));
        QCOMPARE(view.annotations()->noteTextAt(box.center().x(), box.center().y()), QString::fromStdString(a.text));
    }
};

QTEST_MAIN(TestNoteLabels)
#include "tst_note_labels.moc"

// #35 item 11: note labels were cut ("…(s…") on the timeline with room to spare. A label is as wide
// as its text up to half the area (at least AnnotationPainter::kMaxLabelWidth), so a 60-character
// note is drawn whole on a wide view and cut only on a narrow one; the whole text is the tooltip.
#include "views/annotations/annotation_painter.h"

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
};

QTEST_MAIN(TestNoteLabels)
#include "tst_note_labels.moc"

// Annotations at scale: 200 k notes, or one 5 MB note, cost what a few short ones do. Only the notes
// that overlap the visible range are looked at (AnnotationTimeIndex), a label or legend entry shows
// the first line of its note cut to kMaxLabelChars, labels take a bounded number of rows, more than
// kMaxBands notes in view are drawn as one density strip, a chart gets one item for them instead of
// three per note, and the Annotations dock formats only the rows it shows.

#include "models/qt/session_models.h"
#include "models/annotations/annotation_model.h"
#include "models/text/display_text.h"
#include "tests/test_support.h"
#include "views/annotations/annotation_list_view.h"
#include "views/annotations/annotation_painter.h"
#include "views/annotations/annotation_plot_layer.h"
#include "views/annotations/annotation_time_index.h"
#include "views/export/export_caption.h"

#include <QImage>
#include <QTreeView>
#include <QtTest>
#include <qcustomplot.h>

#include <random>

using namespace stepscope;

namespace {
constexpr int64_t kNotes = 200'000;
constexpr int64_t kSpacing = 10'000;  // ns between note starts: the notes cover [0, 2 s)

// A session whose annotation table holds `sql`'s rows, opened in a SessionModel.
std::unique_ptr<SessionModel> sessionWith(const QString &file, const std::string &sql) {
    {
        SessionStore store(file.toStdString());
        sqliteExec(store.db(), sql.c_str());
    }
    auto session = std::make_unique<SessionModel>();
    session->setStore(std::make_unique<SessionStore>(file.toStdString()));
    return session;
}

// kNotes notes, every other a 2 ms range, the rest points.
std::string manyNotes() {
    return "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < " + std::to_string(kNotes - 1) +
           ") INSERT INTO annotation(start_ns, end_ns, text, color) SELECT i * " + std::to_string(kSpacing) +
           ", i * " + std::to_string(kSpacing) + " + (CASE WHEN i % 2 THEN 0 ELSE 2000000 END), 'note ' || i, '#2f6fb5' FROM n";
}

std::function<double(int64_t)> xOver(const QRect &area, int64_t t0, int64_t t1) {
    return [=](int64_t t) { return area.left() + double(t - t0) * area.width() / double(t1 - t0); };
}
} // namespace

class TstAnnotationsAtScale : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void indexFindsExactlyTheOverlappingNotes() {
        std::mt19937_64 rng(7);
        std::vector<Annotation> notes(5000);
        for (Annotation &a : notes) {
            a.startNs = int64_t(rng() % 1'000'000);
            const uint64_t kind = rng() % 10;  // points, short ranges, a few long ones
            a.endNs = kind < 4 ? a.startNs : a.startNs + int64_t(kind < 9 ? rng() % 2000 : rng() % 500'000);
        }
        std::sort(notes.begin(), notes.end(), [](const Annotation &a, const Annotation &b) { return a.startNs < b.startNs; });
        AnnotationTimeIndex index;
        index.rebuild(notes);
        for (int q = 0; q < 200; ++q) {
            const int64_t lo = int64_t(rng() % 1'100'000) - 50'000, hi = lo + int64_t(rng() % 60'000);
            std::vector<const Annotation *> expected;
            for (const Annotation &a : notes)
                if (a.overlaps(lo, hi)) expected.push_back(&a);
            QCOMPARE(index.overlapping(lo, hi), expected);
            QCOMPARE(index.countOverlapping(lo, hi), expected.size());
        }
    }

    void labelsShowABoundedFirstLine() {
        const std::string huge(5 << 20, 'x');
        const QString label = labelText(huge);
        QCOMPARE(label.size(), kMaxLabelChars + 1);
        QVERIFY(label.endsWith(QChar(0x2026)));
        QCOMPARE(labelText("\n  GPU idle\nsecond line"), QStringLiteral("GPU idle…"));
        QCOMPARE(labelText("bell\x07" "tab\tok"), QStringLiteral("bell\uFFFDtab\tok"));
        QCOMPARE(labelText("short"), QStringLiteral("short"));
        QCOMPARE(labelText("\xC3\xA9t\xC3\xA9", 2), QStringLiteral("ét…"));  // cut between characters
    }

    void painterCostIsBoundedByThePicture() {
        std::vector<Annotation> notes;
        notes.resize(size_t(kNotes));
        for (int64_t i = 0; i < kNotes; ++i) {
            notes[size_t(i)].id = i + 1;
            notes[size_t(i)].startNs = i * kSpacing;
            notes[size_t(i)].endNs = i * kSpacing + (i % 2 ? 0 : 2'000'000);
            notes[size_t(i)].text = "note " + std::to_string(i);
        }
        QImage image(1200, 600, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        const QRect area(0, 0, 1200, 600);
        std::vector<AnnotationHit> hits;
        AnnotationPainter::paint(p, notes, area, xOver(area, 0, kNotes * kSpacing), &hits);
        // Dense: no hit per band, labels on at most kMaxLabelRows rows.
        QVERIFY(!hits.empty());
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](const AnnotationHit &h) { return h.label; }));
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](const AnnotationHit &h) {
            return h.rect.top() < AnnotationPainter::kMaxLabelRows * (AnnotationPainter::kLabelHeight + 2); }));
        QVERIFY2(hits.size() < 200, qPrintable(QString::number(hits.size())));
        QVERIFY(image.pixelColor(600, 400) != QColor(Qt::white));  // the density strip is there
        // A few notes: each its band and its label, as before.
        const std::vector<Annotation> few(notes.begin(), notes.begin() + 3);
        AnnotationPainter::paint(p, few, area, xOver(area, 0, 100'000), &hits);
        QCOMPARE(int(hits.size()), 6);
        QCOMPARE(int(std::count_if(hits.begin(), hits.end(), [](const AnnotationHit &h) { return h.label; })), 3);
    }

    void chartsGetOneItemForManyNotes() {
        auto session = sessionWith(m_dir.filePath("plot.stepscope"), manyNotes());
        AnnotationModel *model = AnnotationModel::of(session.get());
        QCOMPARE(int64_t(model->annotations().size()), kNotes);
        QCustomPlot plot;
        plot.resize(800, 300);
        plot.xAxis->setRange(0, 2.0);
        AnnotationPlotLayer layer(&plot, model, AnnotationPlotLayer::timeKeys([] { return int64_t(0); }));
        layer.refresh();
        QCOMPARE(layer.itemCount(), 1);  // three per note before
        QVERIFY(!plot.toPixmap(800, 300).isNull());
        QVERIFY(layer.annotationAtPixel(plot.xAxis->coordToPixel(0.5)) > 0);
    }

    void dockAndLegendAtScale() {
        auto session = sessionWith(m_dir.filePath("dock.stepscope"),
                                   manyNotes() + "; INSERT INTO annotation(start_ns, end_ns, text) VALUES (5, 7, "
                                                 "'first line' || char(10) || replace(hex(zeroblob(2621440)), '00', 'x '))");
        TimeRangeController time;
        time.setFullRange({0, kNotes * kSpacing});
        AnnotationListView list(SessionModels::of(session.get(), &time));
        QCOMPARE(list.tree()->model()->rowCount(), int(kNotes + 1));
        const QString big = list.tree()->model()->index(1, 2).data().toString();
        QCOMPARE(big, QStringLiteral("first line…"));
        const QString tip = list.tree()->model()->index(1, 2).data(Qt::ToolTipRole).toString();
        QVERIFY(tip.size() < 20'000);

        const ExportDecoration d = ExportCaption::build(session.get(), {0, kNotes * kSpacing}, QStringLiteral("timeline"));
        int notes = 0;
        for (const auto &[color, text] : d.legend) {
            QVERIFY(text.size() <= kMaxLabelChars + 1);
            notes += text.startsWith(QLatin1String("note ")) || text.startsWith(QLatin1String("first line"));
        }
        QCOMPARE(notes, 8);
        QVERIFY(std::any_of(d.legend.begin(), d.legend.end(), [](const auto &e) {
            QString digits = e.second;
            return e.second.endsWith(QLatin1String(" more")) && digits.remove(QRegularExpression("[^0-9]")) == "199993";
        }));
    }
};

QTEST_MAIN(TstAnnotationsAtScale)
#include "tst_annotations_at_scale.moc"

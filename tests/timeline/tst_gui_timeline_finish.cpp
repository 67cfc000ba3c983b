// Issue #18, fit and finish of the timeline, offscreen: flow arrows drawn (the selection's at any
// zoom, visible pairs zoomed in), a metric track's "max" describing the visible range with its unit,
// search hits brought into view as their own item and outlined, keyboard focus back on the timeline
// after Go and a Details double-click, the shortcut card generated from the window's actions, one
// step-label format across the step band.
#include "models/qt/session_models.h"
#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "models/metrics/metric_lod.h"
#include "tests/test_support.h"
#include "tests/timeline/timeline_fixture.h"
#include "views/timeline/keyboard_shortcuts.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/value_track_painter.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLineEdit>
#include <QScrollBar>
#include <QSpinBox>
#include <QTextBrowser>
#include <QStandardPaths>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

using namespace stepscope;

class TstGuiTimelineFinish : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SessionModel m_session;
    TimeRangeController m_time;
    std::unique_ptr<TimelinePaneView> m_pane;
    std::unique_ptr<SliceDetailsView> m_details;
    test::TimelineFixtureInfo m_info;

    TimelineView *view() const { return m_pane->timeline(); }
    // Renders once, waits for the exact windows asked for, renders again (what a person sees).
    QImage render(const QString &name) {
        QImage img(view()->size(), QImage::Format_ARGB32);
        img.fill(Qt::white);
        view()->render(&img);
        if (!QTest::qWaitFor([this] { return !view()->model()->detailPending(); }, 5000)) qWarning("detail still loading");
        view()->render(&img);
        const QString dir = QStringLiteral(STEPSCOPE_BINARY_DIR) + "/timeline_png";
        QDir().mkpath(dir);
        if (!name.isEmpty()) img.save(dir + "/" + name + ".png");
        return img;
    }
    bool arrowDrawn(int64_t from, int64_t to) const {
        for (const TimelineFlow &f : view()->lastArrows())
            if (f.fromSliceId == from && f.toSliceId == to) return true;
        return false;
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        auto store = std::make_unique<SessionStore>((m_dir.path() + "/f.stepscope").toStdString());
        test::TimelineFixtureSpec spec;
        spec.steps = 12;
        spec.opsPerStep = 400;
        m_info = test::writeTimelineFixture(*store, spec);
        m_pane = std::make_unique<TimelinePaneView>(SessionModels::of(&m_session, &m_time));
        m_details = std::make_unique<SliceDetailsView>(view(), &m_time);
        m_pane->resize(1400, 520);
        m_pane->show();
        m_session.setStore(std::move(store));
        QVERIFY(m_time.fullRange().valid());
    }

    void selectedLaunchDrawsItsArrowAtAnyZoom() {
        // Whole run: thousands of slices, no visible pairs' arrows; the selection's still.
        m_time.zoomToFull();
        render({});
        QVERIFY(view()->lastArrows().empty());
        // A kernel that waited for the GPU: its launch ended well before it began.
        size_t pick = 0;
        for (size_t i = 0; i < m_info.kernelIds.size() && !pick; ++i) {
            const SliceDetails k = view()->model()->details(m_info.kernelIds[i]), l = view()->model()->details(m_info.launchIds[i]);
            if (k.startNs - (l.startNs + l.durNs) > 2'000) pick = i;
        }
        QVERIFY(pick > 0);
        const int64_t launch = m_info.launchIds[pick], kernel = m_info.kernelIds[pick];
        view()->selectSlice(launch);
        render(QStringLiteral("finish_selected_launch_whole_run"));
        QVERIFY(arrowDrawn(launch, kernel));
        // Zoomed onto the kernel alone, the launch off screen: the arrow comes in from the edge.
        const SliceDetails k = view()->model()->details(kernel), l = view()->model()->details(launch);
        QVERIFY(k.startNs >= l.startNs + l.durNs);
        m_time.setRange({k.startNs - 1'000, k.startNs + k.durNs + 5'000});
        QVERIFY(l.startNs + l.durNs < m_time.range().start);
        view()->selectSlice(kernel);
        const QImage img = render(QStringLiteral("finish_selected_kernel_launch_off_screen"));
        QVERIFY(arrowDrawn(launch, kernel));
        // Pixel probe: dark arrow ink just left of the kernel's start on its lane.
        const TimelineRow *row = view()->layout().trackRow(view()->model()->trackIndex(m_info.gpuTrack));
        const int y = TimelinePainter::kHeaderHeight + TimelineLayout::laneY(*row, 0) - view()->scrollY() + TimelineLayout::kLaneHeight / 2;
        const int x = int(view()->xOf(k.startNs));
        int dark = 0;
        for (int dx = -8; dx <= 1; ++dx)
            for (int dy = -3; dy <= 3; ++dy)
                if (qGray(img.pixel(x + dx, y + dy)) < 90) ++dark;
        QVERIFY2(dark >= 3, qPrintable(QString::number(dark)));
        // Flows off: nothing.
        view()->setFlowsVisible(false);
        render({});
        QVERIFY(view()->lastArrows().empty());
        view()->setFlowsVisible(true);
    }

    void visiblePairsAreDrawnWhenZoomedIn() {
        view()->selectSlice(-1);
        const SliceDetails l = view()->model()->details(m_info.launchIds[40]);
        const SliceDetails k = view()->model()->details(m_info.kernelIds[40]);
        m_time.setRange({l.startNs - 20'000, k.startNs + k.durNs + 20'000});
        render(QStringLiteral("finish_visible_pairs"));
        QVERIFY(!view()->lastArrows().empty());
        QVERIFY(int(view()->lastArrows().size()) <= TimelinePainter::kMaxFlowArrows);
        QVERIFY(arrowDrawn(m_info.launchIds[40], m_info.kernelIds[40]));
        for (const TimelineFlow &f : view()->lastArrows()) {  // both ends in view: no fan from the edges
            QVERIFY(f.fromNs >= m_time.range().start && f.fromNs <= m_time.range().end);
            QVERIFY(f.toNs >= m_time.range().start && f.toNs <= m_time.range().end);
        }
    }

    void metricMaxLabelDescribesTheVisibleSamples() {
        // 100 ms samples: 97 % stamped at 500 ms (drawn over 400..500 ms), 28 % at 600 ms.
        std::vector<int64_t> t;
        std::vector<float> v;
        for (int k = 1; k <= 20; ++k) {
            t.push_back(k * 100'000'000LL);
            v.push_back(k == 5 ? 97.f : k == 6 ? 28.f : 10.f);
        }
        const MetricLod lod(t, v);
        TimelineValueSeries s;
        s.lod = &lod;
        s.unit = QStringLiteral("%");
        s.periodNs = 100'000'000;
        s.min = 10;
        s.max = 97;
        // The view 450..560 ms shows the 97 % sample's period end and the 28 % one's start.
        const NsRange view{450'000'000, 560'000'000};
        QCOMPARE(ValueTrackPainter::peakLabel(s, view), QStringLiteral("max 97.0") + QChar(0x2009) + "%");
        // Against the samples by brute force, over many zooms: the max of those drawn in view.
        for (int64_t a = 0; a < 2'100'000'000; a += 37'000'000)
            for (int64_t w : {30'000'000LL, 120'000'000LL, 450'000'000LL}) {
                double best = -1;
                for (size_t i = 0; i < t.size(); ++i)
                    if (t[i] > a && t[i] - s.periodNs < a + w) best = std::max(best, double(v[i]));
                const QString label = ValueTrackPainter::peakLabel(s, {a, a + w});
                if (best < 0) QCOMPARE(label, QStringLiteral("no samples"));
                else QVERIFY2(label.contains(ValueTrackPainter::formatValue(best, s.unit, 100)), qPrintable(label));
            }
        // Units on zero too.
        QCOMPARE(ValueTrackPainter::formatValue(0, QStringLiteral("%"), 100), QStringLiteral("0") + QChar(0x2009) + "%");
        QVERIFY(ValueTrackPainter::formatValue(0, QStringLiteral("B"), 1e9).endsWith(QLatin1String("B")));
    }

    void searchBringsTheHitIntoViewUnmergedAndOutlinesHits() {
        m_time.zoomToFull();
        m_pane->searchField()->setText(QStringLiteral("relu"));
        QMetaObject::invokeMethod(m_pane->searchField(), "returnPressed");
        QTRY_VERIFY(!m_pane->search()->busy());
        QVERIFY(m_pane->search()->hitCount() > 10);
        const auto hit = *m_pane->search()->currentHit();
        const NsRange r = m_time.range();
        QVERIFY(r.start <= hit.startNs && hit.startNs + hit.durNs <= r.end);
        const QImage img = render(QStringLiteral("finish_search_hit"));
        bool own = false;
        for (const TimelineHit &h : view()->lastHits())
            if (!h.item.block && h.item.sliceId == hit.sliceId && h.rect.width() >= 10) own = true;
        QVERIFY2(own, "the hit is drawn as its own slice, not inside a merged block");
        int orange = 0;
        for (int y = TimelinePainter::kHeaderHeight; y < img.height(); ++y)
            for (int x = TimelinePainter::kLabelWidth; x < img.width(); ++x)
                if (img.pixel(x, y) == TimelinePainter::kSearchHitRgb) ++orange;
        QVERIFY2(orange > 20, qPrintable(QString::number(orange)));
        // "Find in timeline" (MainWindow's op statistics) from the whole run: in view too.
        m_time.zoomToFull();
        m_pane->search(QStringLiteral("addmm"));
        QTRY_VERIFY(!m_pane->search()->busy());
        QTRY_VERIFY(m_pane->search()->currentHit());
        const auto found = *m_pane->search()->currentHit();
        QVERIFY(m_time.range().start <= found.startNs && found.startNs + found.durNs <= m_time.range().end);
        QVERIFY(m_time.range().duration() <= std::max<int64_t>(found.durNs * 40, 2'000));
        m_pane->searchField()->clear();
    }

    void goAndDetailsGiveTheKeysBackToTheTimeline() {
        m_pane->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_pane.get()));
        auto *box = m_pane->findChild<QSpinBox *>(QStringLiteral("stepBox"));
        auto *go = m_pane->findChild<QToolButton *>(QStringLiteral("goToStep"));
        QVERIFY(box && go);
        box->setFocus();
        box->setValue(5);
        QTest::mouseClick(go, Qt::LeftButton);
        QVERIFY(view()->hasFocus());
        NsRange before = m_time.range();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
        QVERIFY(m_time.range().duration() < before.duration());
        // Enter in the step box.
        box->setFocus();
        box->setValue(6);
        QTest::keyClick(box, Qt::Key_Return);
        QVERIFY(view()->hasFocus());
        // A double-click on a linked slice in Details.
        view()->selectSlice(m_info.launchIds[3]);
        QTreeWidgetItem *linked = nullptr;
        for (QTreeWidgetItemIterator it(m_details->sliceTree()); *it; ++it)
            if ((*it)->data(0, Qt::UserRole + 1).isValid()) linked = *it;
        QVERIFY(linked);
        m_details->sliceTree()->setFocus();
        emit m_details->sliceTree()->itemDoubleClicked(linked, 0);
        QVERIFY(view()->hasFocus());
        before = m_time.range();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_W);
        QVERIFY(m_time.range().duration() < before.duration());
    }

    void shortcutCardListsEveryActionWithAShortcut() {
        gui::setApplicationIdentity();
        gui::MainWindow w;
        const QString card = KeyboardShortcuts::html(&w);
        int checked = 0;
        for (const QAction *a : w.findChildren<QAction *>())
            for (const QKeySequence &k : a->shortcuts()) {
                if (k.isEmpty()) continue;
                QVERIFY2(card.contains(k.toString(QKeySequence::NativeText).toHtmlEscaped()), qPrintable(a->text()));
                QVERIFY2(!a->text().isEmpty(), qPrintable(k.toString()));  // every row says what its keys do
                ++checked;
            }
        QVERIFY(checked >= 15);
        for (const char *keys : {"Ctrl+M", "Ctrl+Shift+M", "Ctrl+B", "Ctrl+O", "Ctrl+Shift+O", "Ctrl+F", "F1"})
            QVERIFY2(card.contains(QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText)), keys);
        QVERIFY(card.contains(QStringLiteral("<b>[</b>")) && card.contains(QStringLiteral("<b>]</b>")));
        QVERIFY(card.contains(QStringLiteral("Save View")) && !card.contains(QStringLiteral("&amp;Save")));
        QVERIFY(card.contains(QStringLiteral("W / S")));  // the timeline's own keys
        QDialog *dialog = KeyboardShortcuts::showDialog(&w);  // looked at: timeline_png/finish_shortcut_card.png
        QCoreApplication::processEvents();
        auto *text = dialog->findChild<QTextBrowser *>("shortcutCard");
        QVERIFY(text);
        QCOMPARE(text->verticalScrollBar()->maximum(), 0);  // every row without scrolling
        dialog->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR) + "/timeline_png/finish_shortcut_card.png");
        dialog->close();
    }

    void stepLabelsShareOneFormat() {
        // Panned so a step is cut by the left edge: the cut one must not fall back to a bare number.
        const NsRange s3 = view()->model()->stepRange(3), s5 = view()->model()->stepRange(5);
        for (const NsRange r : {NsRange{s3.start + s3.duration() * 9 / 10, s5.end}, view()->model()->extent(),
                                NsRange{s3.start + s3.duration() / 2, s3.end + s3.duration() * 3 / 2}}) {
            m_time.setRange(r);
            TimelineFrame f;
            f.model = view()->model();
            f.layout = &view()->layout();
            f.range = r;
            f.size = view()->size();
            const auto labels = TimelinePainter::stepLabels(f, QFontMetrics(view()->font()));
            QVERIFY(!labels.empty());
            int wordy = 0, bare = 0;
            for (const auto &[i, text] : labels) {
                if (text.startsWith(QLatin1String("step "))) ++wordy;
                else if (!text.isEmpty()) ++bare;
            }
            QVERIFY2(wordy == 0 || bare == 0, qPrintable(QStringLiteral("%1 wordy, %2 bare").arg(wordy).arg(bare)));
            QVERIFY(wordy + bare > 0);
        }
        render(QStringLiteral("finish_step_labels"));
    }
};

QTEST_MAIN(TstGuiTimelineFinish)
#include "tst_gui_timeline_finish.moc"

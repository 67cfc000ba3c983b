// TimelineView offscreen: renders (PNG under the build dir), zooms, pans, selects ranges and slices,
// follows the shared TimeRangeController without echoing it, collapses groups, searches.
#include "models/qt/session_models.h"
#include "models/colors/palette.h"
#include "tests/test_support.h"
#include "tests/timeline/timeline_fixture.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QWheelEvent>

#include <memory>

using namespace stepscope;

class TstGuiTimelineView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SessionModel m_session;
    TimeRangeController m_time;
    std::unique_ptr<TimelinePaneView> m_pane;
    std::unique_ptr<SliceDetailsView> m_details;
    test::TimelineFixtureInfo m_info;

    TimelineView *view() const { return m_pane->timeline(); }
    QImage render(const QString &name) {
        QImage img(view()->size(), QImage::Format_ARGB32);
        img.fill(Qt::white);
        view()->render(&img);
        if (!name.isEmpty() && view()->model()->detailPending()) {
            // A named render is looked at: draw again once the background reads are in.
            if (!QTest::qWaitFor([this] { return !view()->model()->detailPending(); }, 5000)) qWarning("detail still loading");
            view()->render(&img);
        }
        const QString dir = QStringLiteral(STEPSCOPE_BINARY_DIR) + "/timeline_png";
        QDir().mkpath(dir);
        if (!name.isEmpty()) img.save(dir + "/" + name + ".png");
        return img;
    }
    void send(QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = {}) {
        QMouseEvent e(type, QPointF(pos), view()->mapToGlobal(QPointF(pos)), button, buttons, mods);
        QApplication::sendEvent(view(), &e);
    }
    void drag(QPoint from, QPoint to, Qt::KeyboardModifiers mods = {}) {
        send(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, mods);
        const QPoint mid = (from + to) / 2;
        send(QEvent::MouseMove, mid, Qt::NoButton, Qt::LeftButton, mods);
        send(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton, mods);
        send(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, mods);
    }
    int trackY(int64_t trackId, uint32_t depth) {
        const TimelineRow *row = view()->layout().trackRow(view()->model()->trackIndex(trackId));
        return TimelinePainter::kHeaderHeight + TimelineLayout::laneY(*row, depth) - view()->scrollY() + TimelineLayout::kLaneHeight / 2;
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        QVERIFY(m_dir.isValid());
        auto store = std::make_unique<SessionStore>((m_dir.path() + "/g.stepscope").toStdString());
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
        QCOMPARE(m_time.range(), view()->model()->extent());
    }

    void rendersWholeRun() {
        const QImage img = render(QStringLiteral("whole_run"));
        // The step row is filled with the colour of the name "ProfilerStep" (from its text).
        const QColor stepColor = nameColorForText(u"ProfilerStep");
        int coloured = 0;
        const int y = trackY(m_info.hostTrack, 0);
        for (int x = TimelinePainter::kLabelWidth + 2; x < img.width(); x += 3)
            if (img.pixel(x, y) == stepColor.rgb()) ++coloured;
        QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
        QVERIFY(!view()->lastHits().empty());
    }

    void ctrlWheelZoomsAtTheCursor() {
        QSignalSpy spy(&m_time, &TimeRangeController::rangeChanged);
        const NsRange before = m_time.range();
        const QPoint at(900, 200);
        const int64_t tAt = view()->timeAt(at.x());
        QWheelEvent wheel(QPointF(at), view()->mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view(), &wheel);
        QCOMPARE(spy.count(), 1);
        QVERIFY(m_time.range().duration() < before.duration() * 0.7);
        QVERIFY(std::abs(view()->timeAt(at.x()) - tAt) <= m_time.range().duration() / 1000);
        QTRY_VERIFY(m_time.canGoBack());  // the gesture is committed to the history
    }

    void keysPanAndZoom() {
        const NsRange before = m_time.range();
        QTest::keyClick(view(), Qt::Key_D);
        QCOMPARE(m_time.range().start - before.start, before.duration() / 10);
        QTest::keyClick(view(), Qt::Key_W);
        QVERIFY(m_time.range().duration() < before.duration());
        QTest::keyClick(view(), Qt::Key_S);
        QVERIFY(std::abs(m_time.range().duration() - before.duration()) < before.duration() / 100);
    }

    // W/A/S/D act on the timeline while the pointer is over it, whichever panel has the focus
    // (issue #35), but not while the user types in a text field.
    void keysFollowThePointerNotTheFocus() {
        QTableView table(m_pane.get());  // another panel of the same window, with the focus
        table.setGeometry(0, 0, 50, 50);
        table.show();
        m_pane->activateWindow();
        table.setFocus();
        QCursor::setPos(view()->mapToGlobal(QPoint(700, 200)));
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(&table));
        const NsRange before = m_time.range();
        QTest::keyClick(&table, Qt::Key_D);
        QCOMPARE(m_time.range().start - before.start, before.duration() / 10);
        QLineEdit field(m_pane.get());  // typing a "d" into a field changes nothing
        field.setGeometry(60, 0, 50, 20);
        field.show();
        field.setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(&field));
        const NsRange typed = m_time.range();
        QTest::keyClick(&field, Qt::Key_D);
        QCOMPARE(m_time.range(), typed);
        QCOMPARE(field.text(), QStringLiteral("d"));
        // The pointer elsewhere: the table's own keys.
        QCursor::setPos(view()->mapToGlobal(QPoint(-200, -200)));
        table.setFocus();
        QTest::keyClick(&table, Qt::Key_D);
        QCOMPARE(m_time.range(), typed);
        m_time.setRange(before);
    }

    void dragPans() {
        const NsRange before = m_time.range();
        drag(QPoint(900, 300), QPoint(700, 300));
        const int width = 1400 - TimelinePainter::kLabelWidth;
        const int64_t expected = before.duration() * 200 / width;
        QVERIFY(std::abs((m_time.range().start - before.start) - expected) <= before.duration() / 500);
        QCOMPARE(m_time.range().duration(), before.duration());
    }

    void shiftDragSelectsAndFZooms() {
        m_time.zoomToFull();
        const int64_t t0 = view()->timeAt(500), t1 = view()->timeAt(800);
        drag(QPoint(500, 300), QPoint(800, 300), Qt::ShiftModifier);
        QVERIFY(m_time.selection().valid());
        QVERIFY(std::abs(m_time.selection().start - t0) <= m_time.range().duration() / 1000);
        QVERIFY(std::abs(m_time.selection().end - t1) <= m_time.range().duration() / 1000);
        QTRY_VERIFY(m_details->aggregateModel()->rowCount() > 0);  // the range table follows
        QTest::keyClick(view(), Qt::Key_F);
        QCOMPARE(m_time.range(), m_time.selection());
        m_time.back();
        QCOMPARE(m_time.range(), m_time.fullRange());
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(!m_time.selection().valid());
    }

    void incomingRangeIsNotEchoed() {
        QSignalSpy spy(&m_time, &TimeRangeController::rangeChanged);
        const NsRange full = m_time.fullRange();
        m_time.setRange({full.start + full.duration() / 4, full.start + full.duration() / 2});
        render({});
        QCoreApplication::processEvents();
        QCOMPARE(spy.count(), 1);
    }

    void goToStepAndClickASlice() {
        QVERIFY(view()->goToStep(3));
        const NsRange step = view()->model()->stepRange(3);
        QVERIFY(m_time.range().start <= step.start && m_time.range().end >= step.end);
        QVERIFY(m_time.range().duration() < step.duration() * 11 / 10);
        render(QStringLiteral("one_step"));
        QSignalSpy selected(view(), &TimelineView::sliceSelected);
        // The step slice itself spans the view at depth 0 of the host track.
        send(QEvent::MouseButtonPress, QPoint(700, trackY(m_info.hostTrack, 0)), Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, QPoint(700, trackY(m_info.hostTrack, 0)), Qt::LeftButton, Qt::NoButton);
        QCOMPARE(selected.count(), 1);
        const auto d = selected.first().first().value<SliceDetails>();
        QCOMPARE(d.name, QStringLiteral("ProfilerStep"));
        QCOMPARE(d.startNs, step.start);
        QVERIFY(m_details->sliceTree()->topLevelItemCount() >= 6);
        QVERIFY(view()->selectedSliceId() >= 0);
    }

    void kernelZoomShowsExactSlicesAndFlows() {
        const SliceDetails k = view()->model()->details(m_info.kernelIds[40]);
        m_time.setRange({k.startNs - 60'000, k.startNs + k.durNs + 60'000});
        view()->selectSlice(k.id);
        // The first frame at a new place draws the summary and asks the background loader for the
        // exact window; when it arrives the model says so and the next frame is exact.
        QSignalSpy loaded(view()->model(), &TimelineModel::detailLoaded);
        render(QString());
        QVERIFY(view()->model()->detailPending());
        bool anyExact = false;
        for (const auto &h : view()->lastHits()) anyExact |= h.item.sliceId == k.id;
        QVERIFY(!anyExact);
        QVERIFY(loaded.wait(5000));
        QTRY_VERIFY(!view()->model()->detailPending());
        render(QStringLiteral("kernel_zoom"));
        bool exactKernel = false;
        for (const auto &h : view()->lastHits())
            if (h.item.sliceId == k.id && !h.item.block && h.rect.width() > 50) exactKernel = true;
        QVERIFY(exactKernel);
        QVERIFY(!view()->model()->flows(m_time.range(), {0, 1, 2}).empty());
    }

    void collapseAndHide() {
        const size_t rows = view()->layout().rows().size();
        view()->setGroupCollapsed(0, true);
        QCOMPARE(view()->layout().rows().size(), size_t(1));
        view()->setGroupCollapsed(0, false);
        QCOMPARE(view()->layout().rows().size(), rows);
        view()->setTrackHidden(0, true);
        QCOMPARE(view()->layout().rows().size(), rows - 1);
        view()->showAllTracks();
        QCOMPARE(view()->layout().rows().size(), rows);
    }

    // A search hit on a hidden track shows that track (issue #35, item 12): stepping to it never
    // selects a slice the user cannot see.
    void searchHitOnAHiddenTrackShowsIt() {
        m_time.zoomToFull();
        m_pane->searchField()->setText(QStringLiteral("relu"));
        QMetaObject::invokeMethod(m_pane->searchField(), "returnPressed");
        QTRY_VERIFY(!m_pane->search()->busy());
        QVERIFY(m_pane->search()->currentHit());
        const int track = m_pane->search()->currentHit()->track;
        view()->setTrackHidden(track, true);
        QVERIFY(!view()->layout().trackRow(track));
        m_pane->searchField()->clear();
        m_pane->searchField()->setText(QStringLiteral("relu"));
        QMetaObject::invokeMethod(m_pane->searchField(), "returnPressed");
        QTRY_VERIFY(!m_pane->search()->busy());
        QCOMPARE(m_pane->search()->currentHit()->track, track);
        QVERIFY(view()->layout().trackRow(track));  // shown again, and the hit selected on it
        QCOMPARE(view()->selectedSliceId(), m_pane->search()->currentHit()->sliceId);
        view()->showAllTracks();
        m_pane->searchField()->clear();
    }

    void searchStepsThroughHits() {
        m_time.zoomToFull();
        m_pane->searchField()->setText(QStringLiteral("relu"));
        QMetaObject::invokeMethod(m_pane->searchField(), "returnPressed");
        QVERIFY(m_pane->search()->busy());  // read in the background: the window stays responsive
        QTRY_VERIFY(!m_pane->search()->busy());
        QVERIFY(m_pane->search()->hitCount() > 10);
        const auto first = *m_pane->search()->currentHit();
        QCOMPARE(view()->selectedSliceId(), first.sliceId);
        QMetaObject::invokeMethod(m_pane->searchField(), "returnPressed");
        QCOMPARE(m_pane->search()->current(), 1);
        QCOMPARE(view()->selectedSliceId(), m_pane->search()->currentHit()->sliceId);
        QVERIFY(m_time.range().start <= m_pane->search()->currentHit()->startNs);
        render(QStringLiteral("search_hit"));
    }
};

QTEST_MAIN(TstGuiTimelineView)
#include "tst_gui_timeline_view.moc"

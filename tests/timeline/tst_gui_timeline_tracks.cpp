// TimelineView offscreen with counter and metric tracks: they are drawn (pixels in their rows), show
// their value on hover, and tracks are reordered by dragging a label or with Alt+Up, the order kept
// in the session so a new view over it (or the same session re-opened) shows the same layout.
#include "models/qt/session_models.h"
#include "models/metrics/metric_series_model.h"
#include "tests/test_support.h"
#include "tests/timeline/value_track_fixture.h"
#include "views/timeline/timeline_pane_view.h"

#include <QApplication>
#include <QDialog>
#include <QTextBrowser>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QToolTip>

#include <memory>

using namespace stepscope;

class TstGuiTimelineTracks : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    SessionModel m_session;
    TimeRangeController m_time;
    std::unique_ptr<MetricSeriesModel> m_metrics;
    std::unique_ptr<TimelinePaneView> m_pane;
    test::TimelineFixtureInfo m_info;
    test::ValueTrackFixture m_values;
    QString m_path;

    TimelineView *view() const { return m_pane->timeline(); }
    int trackNamed(const QString &name) const {
        const auto &tracks = view()->model()->tracks();
        for (size_t i = 0; i < tracks.size(); ++i)
            if (tracks[i].name == name) return int(i);
        return -1;
    }
    // Widget y of the middle of a track's first lane.
    int rowY(int track) const {
        const TimelineRow *row = view()->layout().trackRow(track);
        return row ? TimelinePainter::kHeaderHeight + row->y - view()->scrollY() + row->height / 2 : -1;
    }
    QImage render(const QString &name) {
        QImage img(view()->size(), QImage::Format_ARGB32);
        view()->render(&img);
        const QString dir = QStringLiteral(STEPSCOPE_BINARY_DIR) + "/timeline_png";
        QDir().mkpath(dir);
        img.save(dir + "/" + name + ".png");
        return img;
    }
    void send(QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent e(type, QPointF(pos), view()->mapToGlobal(QPointF(pos)), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(view(), &e);
    }
    void openPane() {
        m_pane = std::make_unique<TimelinePaneView>(SessionModels::of(&m_session, &m_time));
        view()->setMetricSeries(m_metrics.get());
        m_pane->resize(1400, 900);
        m_pane->show();
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        QVERIFY(m_dir.isValid());
        m_path = m_dir.path() + "/tracks.stepscope";
        auto store = std::make_unique<SessionStore>(m_path.toStdString());
        test::TimelineFixtureSpec spec;
        spec.steps = 12;
        spec.opsPerStep = 60;
        m_info = test::writeTimelineFixture(*store, spec);
        m_values = test::writeValueTrackFixture(*store, m_info, spec);
        m_metrics = std::make_unique<MetricSeriesModel>(&m_session);
        openPane();
        m_session.setStore(std::move(store));
        QVERIFY(m_time.fullRange().valid());
    }

    void valueTracksAreDrawn() {
        m_time.zoomToFull();
        const int counter = trackNamed(QStringLiteral("GPU memory allocated"));
        const int gpu = trackNamed(QStringLiteral("GPU utilization"));
        QVERIFY(counter >= 0 && gpu >= 0);
        view()->ensureTrackVisible(gpu);
        const QImage img = render(QStringLiteral("value_tracks"));
        const TimelineRow *row = view()->layout().trackRow(gpu);
        QCOMPARE(row->height, TimelineLayout::kValueTrackHeight);
        // Count pixels of the chart's colour family (not white, not the grid grey) across the row.
        const int top = TimelinePainter::kHeaderHeight + row->y - view()->scrollY();
        int inked = 0;
        for (int x = TimelinePainter::kLabelWidth + 5; x < img.width() - 5; x += 7)
            for (int y = top + 4; y < top + row->height - 4; ++y) {
                const QColor c = img.pixelColor(x, y);
                inked += (c.saturation() > 40);
            }
        QVERIFY2(inked > 200, qPrintable(QString::number(inked)));
    }

    void hoverShowsTheValue() {
        const int gpu = trackNamed(QStringLiteral("GPU utilization"));
        view()->ensureTrackVisible(gpu);
        const int x = int(view()->xOf(m_values.holeStartNs - 20'000'000));
        QHelpEvent help(QEvent::ToolTip, QPoint(x, rowY(gpu)), view()->mapToGlobal(QPoint(x, rowY(gpu))));
        QApplication::sendEvent(view(), &help);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("GPU utilization")), qPrintable(QToolTip::text()));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("%")), qPrintable(QToolTip::text()));
        const int hole = int(view()->xOf(m_values.holeStartNs + 20'000'000));
        QHelpEvent inHole(QEvent::ToolTip, QPoint(hole, rowY(gpu)), view()->mapToGlobal(QPoint(hole, rowY(gpu))));
        QApplication::sendEvent(view(), &inHole);
        QVERIFY2(QToolTip::text().contains(QStringLiteral("no sample")), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    void dragALabelReordersTracks() {
        const int stream = view()->model()->trackIndex(m_info.gpuTrack);
        const int copy = view()->model()->trackIndex(m_info.copyTrack);
        view()->setScrollY(0);
        QVERIFY(rowY(stream) < rowY(copy));
        const QPoint from(60, rowY(copy)), to(60, rowY(stream));
        send(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseMove, from - QPoint(0, 5), Qt::NoButton, Qt::LeftButton);
        QCOMPARE(view()->draggedTrack(), copy);
        send(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(view()->draggedTrack(), -1);
        QVERIFY(rowY(copy) < rowY(stream));
        render(QStringLiteral("tracks_reordered"));
        // Saved in the session, by name.
        const std::string saved = m_session.store()->setting("timeline.tracks");
        QVERIFY2(saved.find("stream 20 (memcpy)") != std::string::npos, saved.c_str());
    }

    void altArrowMovesTheSelectedTrack() {
        const int stream = view()->model()->trackIndex(m_info.gpuTrack);
        const int copy = view()->model()->trackIndex(m_info.copyTrack);
        view()->selectSlice(m_info.kernelIds.front());
        QCOMPARE(view()->model()->details(m_info.kernelIds.front()).track, stream);
        QTest::keyClick(view(), Qt::Key_Up, Qt::AltModifier);
        QVERIFY(rowY(stream) < rowY(copy));
        QTest::keyClick(view(), Qt::Key_Down, Qt::AltModifier);
        QVERIFY(rowY(copy) < rowY(stream));
    }

    void questionMarkShowsTheShortcuts() {
        QTest::keyClick(view(), Qt::Key_Question);
        auto *dialog = view()->findChild<QDialog *>(QStringLiteral("keyboardShortcuts"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        auto *text = dialog->findChild<QTextBrowser *>();
        QVERIFY(text->toPlainText().contains(QStringLiteral("W / S")));
        QVERIFY(text->toPlainText().contains(QStringLiteral("reorder tracks")));
        dialog->close();
        QTRY_VERIFY(!view()->findChild<QDialog *>(QStringLiteral("keyboardShortcuts")));
    }

    void bigMetricsLoadInTheBackground() {
        // Every session counts as big here: the series arrive from a worker, and the timeline's
        // metric tracks with them.
        SessionModel session;
        MetricSeriesModel metrics(&session);
        metrics.setBackgroundThreshold(0);
        TimeRangeController time;
        TimelinePaneView pane(SessionModels::of(&session, &time));
        pane.timeline()->setMetricSeries(&metrics);
        QSignalSpy arrived(&metrics, &MetricSeriesModel::seriesChanged);
        session.setStore(std::make_unique<SessionStore>(m_path.toStdString()));
        QVERIFY(metrics.loading());
        QCOMPARE(metrics.count(), 0);
        QTRY_VERIFY(!metrics.loading());
        QVERIFY(metrics.count() >= 5);
        QVERIFY(arrived.count() >= 1);
        bool metricTrack = false;
        for (const TimelineTrack &t : pane.timeline()->model()->tracks()) metricTrack |= t.kind == QLatin1String("metric");
        QVERIFY(metricTrack);
        // Re-opened while loading: only the newest session's series land.
        session.setStore(std::make_unique<SessionStore>(m_path.toStdString()));
        session.close();
        QTest::qWait(200);
        QCOMPARE(metrics.count(), 0);
        QVERIFY(!metrics.loading());
    }

    void layoutSurvivesANewViewAndReopening() {
        const int counter = trackNamed(QStringLiteral("GPU memory allocated"));
        view()->setTrackHidden(counter, true);
        // A second view over the same session starts from the saved choices.
        openPane();
        const int stream = view()->model()->trackIndex(m_info.gpuTrack);
        const int copy = view()->model()->trackIndex(m_info.copyTrack);
        QVERIFY(rowY(copy) < rowY(stream));
        QVERIFY(view()->layout().isHidden(trackNamed(QStringLiteral("GPU memory allocated"))));
        // Re-opening the file: the same.
        m_session.setStore(std::make_unique<SessionStore>(m_path.toStdString()));
        QVERIFY(rowY(copy) < rowY(stream));
        QCOMPARE(view()->layout().hiddenCount(), 1);
        view()->showAllTracks();
        QCOMPARE(view()->layout().hiddenCount(), 0);
        QVERIFY(rowY(copy) < rowY(stream));  // showing tracks keeps the order
    }
};

QTEST_MAIN(TstGuiTimelineTracks)
#include "tst_gui_timeline_tracks.moc"

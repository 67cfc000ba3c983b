// Two captures recorded minutes apart in one folder (issue #35, item 13): the timeline shows the
// first capture, not 8 minutes with the data squeezed at both edges; the Capture box lists both
// and All, zooms to the one picked, and follows the zoom. captureClusters splits only real gaps.

#include "models/qt/session_models.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/timeline/capture_clusters.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"
#include "views/timeline/capture_picker.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"

#include <QSettings>
#include <QSignalSpy>
#include <QtTest>

using namespace stepscope;

namespace {
constexpr int64_t kS = 1'000'000'000;
}

class TestGuiCapturePicker : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::isolateSettings(); }

    void clustersSplitOnlyLongGaps() {
        // Two 4 s captures 8 minutes apart; ranks of one capture overlap.
        const auto two = captureClusters({{0, 4 * kS}, {480 * kS, 484 * kS}, {1 * kS, 3 * kS}});
        QCOMPARE(two.size(), size_t(2));
        QCOMPARE(two[0], (NsRange{0, 4 * kS}));
        QCOMPARE(two[1], (NsRange{480 * kS, 484 * kS}));
        // One run, or runs a few seconds apart, or a gap short against the captures: one stretch.
        QVERIFY(captureClusters({{0, 4 * kS}}).empty());
        QVERIFY(captureClusters({{0, 4 * kS}, {9 * kS, 12 * kS}}).empty());
        QVERIFY(captureClusters({{0, 100 * kS}, {130 * kS, 200 * kS}}).empty());
        QVERIFY(captureClusters({}).empty());
    }

    void sessionOfTwoCapturesShowsTheFirst() {
        QTemporaryDir dir;
        std::vector<std::filesystem::path> traces;
        for (int i = 0; i < 2; ++i) {
            synth::SyntheticProfileOptions o;
            o.steps = 10;
            o.seed = 3 + i;
            o.epochStartNs += i * 480 * kS;  // the second capture eight minutes later
            traces.push_back(dir.filePath(QStringLiteral("capture%1.pt.trace.json.gz").arg(i)).toStdString());
            synth::SyntheticProfileGenerator(o).generate(traces.back(), {});
        }
        test::ImportedSession imported(traces);
        SessionModel session;
        TimeRangeController time;
        TimelinePaneView pane(SessionModels::of(&session, &time));
        pane.resize(1200, 500);
        pane.show();
        QObject::connect(&session, &SessionModel::sessionChanged, &time, [&] { time.setFullRange(session.extent()); });
        session.setStore(std::make_unique<SessionStore>(imported.store->path(), SessionStore::Mode::ReadOnly));
        CapturePicker *picker = pane.capturePicker();
        QVERIFY(picker->isVisibleTo(&pane));
        QCOMPARE(picker->captures().size(), size_t(2));
        QCOMPARE(picker->count(), 3);  // All, capture 1, capture 2
        QVERIFY2(picker->itemText(2).contains("8 min") || picker->itemText(2).contains("480"), qPrintable(picker->itemText(2)));
        // Opened on the first capture: a few seconds, not the 8-minute span.
        QVERIFY2(time.range().duration() < 30 * kS, qPrintable(QString::number(time.range().duration())));
        QVERIFY(time.range().end < picker->captures()[1].start);
        QCOMPARE(picker->currentIndex(), 1);
        // The other capture's run is folded: its empty tracks do not push the shown one down.
        TimelineView *tl = pane.timeline();
        int runHeaders = 0, tracks = 0;
        for (const TimelineRow &row : tl->layout().rows()) {
            runHeaders += row.kind == TimelineRow::Kind::RunHeader;
            if (row.kind == TimelineRow::Kind::Track) ++tracks;
        }
        QCOMPARE(runHeaders, 2);
        QVERIFY(tracks > 0);
        int foldedRuns = 0;
        for (int g = 0; g < int(tl->model()->groups().size()); ++g)
            if (tl->model()->groups()[size_t(g)].parent < 0 && tl->layout().isCollapsed(g)) ++foldedRuns;
        QCOMPARE(foldedRuns, 1);
        // The "ranks aligned" habit of a job is not applied to captures (they are not ranks).
        QSettings().setValue("timeline/alignRanks", true);
        tl->restoreAlignment();
        QVERIFY(!tl->alignedStep().has_value());
        QSettings().remove("timeline/alignRanks");
        QSignalSpy shown(picker, &CapturePicker::captureShown);
        QVERIFY(pane.grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/capture_picker.png")));
        // Picking the second zooms every view there; All shows the whole span; the box follows.
        picker->showCapture(1);
        QVERIFY(time.range().start >= picker->captures()[0].end);
        QCOMPARE(picker->currentIndex(), 2);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.first().first().value<std::vector<int64_t>>().size(), size_t(1));
        picker->showCapture(-1);
        QCOMPARE(picker->currentIndex(), 0);
        for (int g = 0; g < int(tl->model()->groups().size()); ++g) QVERIFY(!tl->layout().isCollapsed(g));
    }
};

QTEST_MAIN(TestGuiCapturePicker)
#include "tst_gui_capture_picker.moc"

// Compact aligned ranks (issue #15), in a 1280×800 MainWindow over a synthetic 8-rank job whose
// rank 5 is late on its input: aligned at a step, every rank shows its main host thread and its
// busiest GPU stream in thin lanes, and all 8 ranks' step rows fit the timeline's viewport; turning
// compact off brings back exactly the tracks shown before (compact holds aligned or not); the preference
// is remembered in QSettings; the session file is never written. Rendered to
// job_timeline_compact.png in the build folder for inspection.

#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "models/analysis/service/analysis_service.h"
#include "models/analysis/service/derived_results.h"
#include "models/timeline/timeline_compact_tracks.h"
#include "tests/analysis/import_helper.h"
#include "tests/jobs/job_test_support.h"
#include "tests/test_support.h"
#include "views/job/job_heatmap_plot.h"
#include "views/job/job_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"

#include <QCheckBox>
#include <QLabel>
#include <QCryptographicHash>
#include <QDockWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include <set>

using namespace stepscope;
using namespace stepscope::test;

namespace {
QByteArray hashOf(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256) : QByteArray();
}
std::set<int> visibleTracks(TimelineView *tl) {
    std::set<int> out;
    for (const TimelineRow &row : tl->layout().rows())
        if (row.kind == TimelineRow::Kind::Track) out.insert(row.index);
    return out;
}
} // namespace

class TestGuiJobCompact : public QObject {
    Q_OBJECT
    SyntheticJob m_job;
    QTemporaryDir m_dir;
    QString m_file;

private slots:
    void initTestCase() {
        isolateSettings();
        QStandardPaths::setTestModeEnabled(true);
        gui::setApplicationIdentity();
        QSettings().clear();
        writeJob(m_job, jobOptions(8, 5, synth::LateCause::Input, 30, 8, 40));
        m_file = m_dir.filePath("job8.stepscope");
        SessionStore store(m_file.toStdString());
        std::ostringstream out, err;
        cli::importInto(store, {m_job.path()}, {out, err, false});
        AnalysisService::finishImport(store, true);  // as `stepscope import` does: the window only reads them
    }

    void eightRanksFitAndComeBack() {
        const QByteArray before = hashOf(m_file);
        gui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.openSession(m_file, false);
        auto *job = qobject_cast<JobView *>(window.viewWidget("job"));
        TimelineView *tl = qobject_cast<TimelinePaneView *>(window.viewWidget("timeline"))->timeline();
        QVERIFY(job && tl);
        QVERIFY(QTest::qWaitFor([&] { return job->job().has_value(); }, 60000));
        QCOMPARE(job->job()->ranks, 8);
        QCoreApplication::processEvents();
        QVERIFY(tl->compactRanks());  // on by default, and a job opens compact, aligned or not
        QVERIFY(job->compactBox()->isChecked());
        QVERIFY(tl->isCompact());
        tl->setCompactRanks(false);
        const std::set<int> recorded = visibleTracks(tl);
        QVERIFY(!tl->isCompact());
        tl->setCompactRanks(true);
        QVERIFY(tl->isCompact());

        QVERIFY(job->alignColumn(3));
        QCoreApplication::processEvents();
        QVERIFY(tl->alignedStep().has_value());
        QVERIFY(tl->isCompact());
        // Every rank: its main host thread (the step markers) and busiest GPU stream, nothing else.
        const int viewport = tl->height() - TimelinePainter::kHeaderHeight;
        int hostRows = 0;
        for (const TimelineRow &row : tl->layout().rows()) {
            QCOMPARE(int(row.kind), int(TimelineRow::Kind::Track));
            const TimelineTrack &track = tl->model()->tracks()[size_t(row.index)];
            const auto kept = compactTracksOf(*tl->model(), track.runId);
            QVERIFY(std::find(kept.begin(), kept.end(), row.index) != kept.end());
            if (track.kind != QLatin1String("host_thread")) continue;
            ++hostRows;
            QVERIFY2(row.y >= tl->scrollY() && row.y + row.height <= tl->scrollY() + viewport,
                     qPrintable(QStringLiteral("%1 at %2..%3, viewport %4").arg(track.name).arg(row.y).arg(row.y + row.height).arg(viewport)));
        }
        QCOMPARE(hostRows, 8);
        QVERIFY2(tl->layout().contentHeight() <= viewport,
                 qPrintable(QStringLiteral("content %1, viewport %2").arg(tl->layout().contentHeight()).arg(viewport)));
        tl->model()->setBackgroundLoading(false);  // the picture with every rank read
        QVERIFY(tl->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_timeline_compact.png")));

        // Compact off (the Job dock's box): the tracks shown before, and remembered.
        job->compactBox()->setChecked(false);
        QCoreApplication::processEvents();
        QVERIFY(!tl->compactRanks() && !tl->isCompact() && tl->alignedStep().has_value());
        QCOMPARE(visibleTracks(tl), recorded);
        QVERIFY(!QSettings().value("timeline/compactRanks").toBool());
        // On again, then leaving the alignment: still compact (the recorded times); off: the same tracks.
        tl->setCompactRanks(true);
        QVERIFY(tl->isCompact() && job->compactBox()->isChecked());
        tl->clearAlignment();
        QVERIFY(tl->isCompact());
        tl->setCompactRanks(false);
        QCOMPARE(visibleTracks(tl), recorded);
        tl->setCompactRanks(true);
        QVERIFY(QSettings().value("timeline/compactRanks").toBool());
        QCOMPARE(hashOf(m_file), before);
    }

    void jobDockShowsEveryWordAtItsDefaultSize() {
        gui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        window.openSession(m_file, false);
        auto *job = qobject_cast<JobView *>(window.viewWidget("job"));
        QVERIFY(job);
        QVERIFY(QTest::qWaitFor([&] { return job->job().has_value(); }, 60000));
        window.findChild<QDockWidget *>("jobDock")->raise();
        QCoreApplication::processEvents();
        QTRY_VERIFY(job->isVisible() && job->heatmap()->width() > 100);
        job->heatmap()->replot();
        // The dock is never smaller than what the view needs, and each part gets its share.
        QVERIFY2(job->height() >= job->minimumSizeHint().height(),
                 qPrintable(QStringLiteral("%1 < %2").arg(job->height()).arg(job->minimumSizeHint().height())));
        for (QLabel *label : job->findChildren<QLabel *>()) {
            if (!label->isVisible() || label->text().isEmpty()) continue;
            const int needed = label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().height();
            QVERIFY2(needed <= label->height(), qPrintable(label->text()));
            QVERIFY2(label->wordWrap() || label->sizeHint().width() <= label->width(), qPrintable(label->text()));
        }
        for (QCheckBox *box : job->findChildren<QCheckBox *>())
            QVERIFY2(box->sizeHint().width() <= box->width(), qPrintable(box->text()));
        // The heatmap's axis label and colour legend lie inside the plot.
        QCustomPlot *map = job->heatmap();
        QVERIFY(map->height() >= JobView::kPlotMinHeight);
        const QRect axes = map->axisRect()->outerRect();
        QVERIFY2(axes.bottom() <= map->height() && axes.top() >= 0,
                 qPrintable(QStringLiteral("axes %1..%2 in %3").arg(axes.top()).arg(axes.bottom()).arg(map->height())));
        const QCPAxis *x = map->xAxis;
        const int labelBottom = map->axisRect()->rect().bottom() + x->offset() + x->tickLengthOut() + x->tickLabelPadding() +
                                QFontMetrics(x->tickLabelFont()).height() + x->labelPadding() + QFontMetrics(x->labelFont()).height();
        QVERIFY2(labelBottom <= map->height(), qPrintable(QStringLiteral("label to %1 in %2").arg(labelBottom).arg(map->height())));
        QVERIFY(job->heatmap()->scale()->outerRect().right() <= map->width());
        QVERIFY(job->grab().save(QStringLiteral(STEPSCOPE_BINARY_DIR "/job_dock_default.png")));
    }
};

QTEST_MAIN(TestGuiJobCompact)
#include "tst_gui_job_compact.moc"

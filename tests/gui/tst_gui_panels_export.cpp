// Exports describe what they show (issue #18, items 6 and 13): the caption and legend of a picture of
// steps 3-3 carry the breakdown `report --steps 3-3` computes (no category the step lacks, no whole-run
// figures), a view's picture has no toolbar and its timeline's last track is whole, a CPU-only trace
// gets no "GPU busy 0.0 %", and the export dialog starts in the folder of the last export and says
// which file it wrote. Pictures stay in the build folder (panels_export_*.png) for looking at.

#include "models/qt/session_models.h"
#include "app/gui/export_dialog.h"
#include "app/gui/main_window.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/analysis/report/report_builder.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/cli/cli_test_support.h"
#include "tests/test_support.h"
#include "models/colors/palette.h"
#include "views/export/export_caption.h"
#include "views/steps/step_time_view.h"
#include "views/timeline/timeline_painter.h"
#include "views/timeline/timeline_view.h"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QtTest>

using namespace stepscope;
using namespace stepscope::test;

namespace {
const QString kOut = QStringLiteral(STEPSCOPE_BINARY_DIR);

QString categoryText(int c) {
    const auto n = kCategoryNames[size_t(c)];
    return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

// The legend's step-time entries ("checkpoint 84.9 %") after its "Step time" heading.
QStringList stepTimeLegend(const ExportDecoration &d) {
    QStringList out;
    bool in = false;
    for (const auto &[color, text] : d.legend) {
        if (!color.isValid()) in = text == QLatin1String("Step time");
        else if (in) out << text;
    }
    return out;
}

// What the legend says for a breakdown, as the report computes it.
QStringList expectedLegend(const RunAnalysis &a) {
    std::vector<std::pair<double, int>> shares;
    for (int c = 0; c < kCategoryCount; ++c)
        if (a.categoryPct(Category(c)) >= 1.0) shares.push_back({a.categoryPct(Category(c)), c});
    std::sort(shares.rbegin(), shares.rend());
    QStringList out;
    for (const auto &[pct, c] : shares) out << QStringLiteral("%1 %2 %").arg(categoryText(c)).arg(pct, 0, 'f', 1);
    return out;
}
} // namespace

class TestGuiPanelsExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_session;

private slots:
    void initTestCase() {
        isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 20;
        o.bottleneck = synth::Bottleneck::Checkpoint;  // steps 10 and 20 checkpoint; step 3 does not
        const std::filesystem::path trace = m_dir.filePath("ckpt.pt.trace.json.gz").toStdString();
        const std::filesystem::path smi = m_dir.filePath("nvidia-smi.csv").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, smi);
        m_session = m_dir.filePath("ckpt.stepscope").toStdString();
        const CliResult r = runCli({"import", trace.string(), smi.string(), "-o", m_session});
        QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
    }

    void captionOfOneStepIsThatStepsReport() {
        ReportOptions ro;
        ro.firstStep = 3;
        ro.lastStep = 3;
        SessionStore store(m_session, SessionStore::Mode::ReadOnly);
        const Report report = ReportBuilder(store).build(ro);
        QCOMPARE(report.runs.size(), size_t(1));
        const RunAnalysis &step3 = report.runs[0].analysis;
        QCOMPARE(step3.steps.steps.size(), size_t(1));
        QCOMPARE(step3.categoryNs(Category::Checkpoint), int64_t(0));
        const QStringList expected = expectedLegend(step3);
        QVERIFY(!expected.isEmpty());

        // The range `export --steps 3-3` shows: step 3's marker.
        gui::MainWindow window(nullptr, gui::MainWindow::Mode::Headless);
        window.openSession(QString::fromStdString(m_session));
        int64_t lo = 0, hi = 0;
        for (const StepRow &s : SessionReader(*window.session()->store()).steps(report.runs[0].run.id))
            if (s.step == 3) lo = s.startNs, hi = s.startNs + s.durNs;
        QVERIFY(hi > lo);
        const ExportDecoration d = ExportCaption::build(window.session(), {lo, hi}, QStringLiteral("steps"));
        QCOMPARE(stepTimeLegend(d), expected);
        const QString caption = d.caption.join('\n');
        QVERIFY2(caption.contains(QStringLiteral("Bottleneck (step 3): %1").arg(QString::fromStdString(step3.bottleneck))),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("GPU busy %1 %").arg(*step3.gpuBusy(), 0, 'f', 1)), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("step 3 of 20")), qPrintable(caption));
        // The whole run's legend has checkpoint; this one has not.
        const ExportDecoration whole = ExportCaption::build(window.session(), window.timeRange()->fullRange(), QStringLiteral("steps"));
        QVERIFY(stepTimeLegend(whole).join(' ').contains(QStringLiteral("checkpoint")));
        QVERIFY(!stepTimeLegend(d).join(' ').contains(QStringLiteral("checkpoint")));

        // The command line says the same in the picture (SVG keeps the text).
        const QString svg = kOut + "/panels_export_step3.svg";
        const CliResult r = runCli({"export", m_session, "--view", "steps", "--steps", "3-3", "-o", svg.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        for (const QString &entry : expected) QVERIFY2(text.contains(entry), qPrintable(entry));
        QVERIFY2(!text.contains(QStringLiteral(">checkpoint ")), "no checkpoint share in the legend of step 3");
        QVERIFY(runCli({"export", m_session, "--view", "steps", "--steps", "3-3", "-o", (kOut + "/panels_export_step3.png").toStdString()}).code == 0);
    }

    void viewPicturesHaveNoToolbarAndWholeTracks() {
        const QString png = kOut + "/panels_export_timeline.png";
        const CliResult r = runCli({"export", m_session, "--view", "timeline", "--size", "1200x300", "--no-caption", "-o", png.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QImage image(png);
        QVERIFY(!image.isNull());
        // The picture starts with the timeline's ruler, not with the search field and Step/Go row.
        for (int x = 1; x < 6; ++x)
            for (int y = 1; y < TimelinePainter::kRulerHeight - 2; y += 3)
                QVERIFY2(image.pixelColor(x, y) == QColor(250, 251, 252),
                         qPrintable(QStringLiteral("(%1,%2) is %3").arg(x).arg(y).arg(image.pixelColor(x, y).name())));
        // 300 px hold a few tracks; the picture holds them all (the last metric track too).
        gui::MainWindow window(nullptr, gui::MainWindow::Mode::Headless);
        window.openSession(QString::fromStdString(m_session));
        std::unique_ptr<QWidget> view(window.createView(QStringLiteral("timeline")));
        view->setAttribute(Qt::WA_DontShowOnScreen);
        view->resize(1200, 300);
        view->show();
        QCoreApplication::processEvents();
        auto *timeline = view->findChild<TimelineView *>();
        QVERIFY(timeline);
        const int content = timeline->layout().contentHeight();
        QVERIFY2(content > 300, "the fixture has more tracks than 300 px show");
        QVERIFY2(image.height() >= TimelinePainter::kHeaderHeight + content,
                 qPrintable(QStringLiteral("%1 < %2").arg(image.height()).arg(TimelinePainter::kHeaderHeight + content)));
    }

    void cpuOnlyRunHasNoGpuBusy() {
        AnalysisFixture f;
        for (int i = 0; i < 3; ++i) {
            const int64_t t = i * 100 * kMs;
            f.step(i + 1, t, t + 100 * kMs);
            f.slice(f.host, "aten::linear", "cpu_op", t, t + 30 * kMs);
        }
        f.commit();
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(f.store().path()));
        TimeRangeController time;
        const NsRange e = session.extent();
        time.setFullRange(e);
        StepTimeView steps(SessionModels::of(&session, &time));
        QCOMPARE(steps.barCount(), 3);
        for (const QLabel *l : steps.findChildren<QLabel *>()) QVERIFY2(!l->text().contains("GPU busy"), qPrintable(l->text()));
        for (const NsRange r : {e, NsRange{0, 100 * kMs}}) {
            const ExportDecoration d = ExportCaption::build(&session, r, QStringLiteral("steps"));
            QVERIFY2(!d.caption.join('\n').contains("GPU busy"), qPrintable(d.caption.join('\n')));
            QVERIFY(d.caption.join('\n').contains("Bottleneck"));
        }
    }

    void dialogRemembersTheFolderAndNamesTheFile() {
        gui::MainWindow window(nullptr, gui::MainWindow::Mode::Headless);
        window.openSession(QString::fromStdString(m_session));
        window.setAttribute(Qt::WA_DontShowOnScreen);
        window.resize(1200, 800);
        window.show();
        QCoreApplication::processEvents();
        const QString folder = m_dir.filePath("figures");
        QVERIFY(QDir().mkpath(folder));
        {
            gui::ExportDialog dialog(&window, QStringLiteral("steps"));
            dialog.setFile(folder + "/steps.png");
            QCOMPARE(dialog.exportNow(), QString());
            QCOMPARE(dialog.writtenFile(), QFileInfo(folder + "/steps.png").absoluteFilePath());
            QVERIFY(QFileInfo::exists(dialog.writtenFile()));
        }
        gui::ExportDialog again(&window, QStringLiteral("findings"));
        const auto *file = again.findChild<QLineEdit *>();
        QVERIFY(file);
        QCOMPARE(QFileInfo(file->text()).absolutePath(), QFileInfo(folder).absoluteFilePath());
        QCOMPARE(gui::ExportDialog::lastFolder(), QFileInfo(folder).absoluteFilePath());
    }
};

QTEST_MAIN(TestGuiPanelsExport)
#include "tst_gui_panels_export.moc"

// Exported pictures, headless through `stepscope export` and `report --screenshots` (the same path as
// the GUI): PNG at 1× and 2× (size, not blank), SVG (annotation text kept as <text>), PDF (exactly one
// page); --annotate draws a note without writing the session; the evidence pack writes one picture
// per finding, linked relatively from the markdown. The pictures stay in the build folder
// (export_*.png, evidence/) for looking at.

#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/gui/main_window.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "models/store/session_reader.h"
#include "views/steps/step_time_view.h"
#include "tests/cli/cli_test_support.h"
#include "tests/test_support.h"
#include "views/annotations/annotation_list_view.h"
#include "views/export/view_exporter.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTreeWidget>
#include <QtTest>
#include <qcustomplot.h>

#include <fstream>
#include <sstream>

using namespace stepscope;

namespace {
using Result = test::CliResult;
using test::runCli;
QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
// Pixels that are not the white page (nor nearly so).
double inkFraction(const QImage &image) {
    int64_t ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() < 235 || c.green() < 235 || c.blue() < 235) ++ink;
        }
    return double(ink) / (double(image.width() / 2) * double(image.height() / 2));
}
int64_t annotationRows(const std::string &session) {
    SessionStore store(session, SessionStore::Mode::ReadOnly);
    SqliteStatement st(store.db(), "SELECT count(*) FROM annotation");
    return st.step() ? st.columnInt(0) : -1;
}
const QString kOut = QStringLiteral(STEPSCOPE_BINARY_DIR);
} // namespace

class TestGuiExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_session;

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 20;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        const std::filesystem::path trace = m_dir.filePath("ckpt.pt.trace.json.gz").toStdString();
        const std::filesystem::path smi = m_dir.filePath("nvidia-smi.csv").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, smi);
        m_session = m_dir.filePath("ckpt.stepscope").toStdString();
        const Result r = runCli({"import", trace.string(), smi.string(), "-o", m_session});
        QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
        // One stored note, so the pictures carry a saved annotation as well as a transient one.
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(m_session));
        const NsRange e = session.extent();
        Annotation a;
        a.startNs = e.start + (e.end - e.start) / 2;
        a.endNs = a.startNs + (e.end - e.start) / 10;
        a.text = "saved note: slow step";
        QVERIFY(AnnotationModel::of(&session)->add(a) > 0);
    }

    void pngAtOneAndTwoTimes() {
        const QString png = kOut + "/export_timeline.png", png2 = kOut + "/export_steps_2x.png";
        Result r = runCli({"export", m_session, "--view", "timeline", "--size", "1400x800", "--annotate", "GPU idles here",
                           "-o", png.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        QImage image(png);
        QCOMPARE(image.width(), 1400);
        QVERIFY2(image.height() > 800, "caption and legend add to the view's height");
        QVERIFY2(inkFraction(image) > 0.05, "the picture is not blank");
        r = runCli({"export", m_session, "--view", "steps", "--size", "900x500", "--scale", "2", "--steps", "5-12",
                    "--annotate", "steps 5-12", "-o", png2.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QImage twice(png2);
        QCOMPARE(twice.width(), 1800);
        QVERIFY(twice.height() > 1000);
        QVERIFY(inkFraction(twice) > 0.05);
        QCOMPARE(annotationRows(m_session), int64_t(1));  // --annotate never writes the session
    }

    void rangeFromTheSessionStart() {
        // "0.5s:+2ms": 2 ms half a second in; the caption says where.
        const QString svg = kOut + "/export_range.svg";
        Result r = runCli({"export", m_session, "--view", "timeline", "--range", "0.5s:+2ms", "-o", svg.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QString text = QString::fromUtf8(readAll(svg));
        // Both ends in the span's unit (formatTime): "500.000 ms – 502.000 ms (2.000 ms)".
        QVERIFY2(text.contains("500.000 ms") && text.contains("502.000 ms") && text.contains("2.000 ms"),
                 "the caption shows the range asked for");
        // Units required (a bare "2.5" is not nanoseconds by accident); outside the session refused.
        r = runCli({"export", m_session, "--view", "timeline", "--range", "2.5:2.6", "-o", svg.toStdString()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("--range") != std::string::npos, r.err.c_str());
        r = runCli({"export", m_session, "--view", "timeline", "--range", "1h:2h", "-o", svg.toStdString()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("outside the session") != std::string::npos, r.err.c_str());
    }

    // A picture of steps 5-12 shows those eight bars (was: every step, with only the caption right).
    void stepsPictureShowsOnlyItsSteps() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        w.openSession(QString::fromStdString(m_session), false);
        QVERIFY(w.session()->isOpen());
        const RunRow run = SessionReader(*w.session()->store()).runs().front();
        const RunAnalysis *a = AnalysisModel::of(w.session())->analysisOrStart(run.id);
        QVERIFY(a && a->steps.steps.size() > 12);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const AnalysisStep &s : a->steps.steps)
            if (s.step >= 5 && s.step <= 12) lo = std::min(lo, s.start), hi = std::max(hi, s.end);
        w.timeRange()->setRange({lo, hi});
        std::unique_ptr<QWidget> view(w.createView(QStringLiteral("steps")));
        auto *steps = qobject_cast<StepTimeView *>(view.get());
        QVERIFY(steps);
        QCOMPARE(steps->barCount(), int(a->steps.steps.size()));  // the view: every step, those in view marked
        steps->setShowOnlyRange(true);
        QCOMPARE(steps->barCount(), 8);
        QCOMPARE(steps->plot()->xAxis->range().lower, 4.0);
        QCOMPARE(steps->plot()->xAxis->range().upper, 13.0);
    }

    void svgKeepsTextAsText() {
        const QString svg = kOut + "/export_window.svg";
        const Result r = runCli({"export", m_session, "--view", "window", "--annotate", "GPU idles here", "-o", svg.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QString text = QString::fromUtf8(readAll(svg));
        QVERIFY(text.startsWith("<?xml") || text.contains("<svg"));
        const QRegularExpression note(R"(<text[^>]*>[^<]*GPU idles here)");
        QVERIFY2(note.match(text).hasMatch(), "the transient note is SVG text");
        QVERIFY2(text.contains("saved note: slow step"), "the stored note is drawn too");
        QVERIFY2(text.contains("Bottleneck:"), "the caption carries the verdict");
        QCOMPARE(annotationRows(m_session), int64_t(1));
    }

    void pdfHasOnePage() {
        const QString pdf = kOut + "/export_timeline.pdf";
        const Result r = runCli({"export", m_session, "--view", "timeline", "--annotate", "one page", "-o", pdf.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF"));
        // "/Type /Page" objects, not "/Type /Pages" (the page tree).
        int pages = 0;
        auto it = QRegularExpression(R"(/Type\s*/Page(?![A-Za-z]))").globalMatch(QString::fromLatin1(bytes));
        while (it.hasNext()) {
            it.next();
            ++pages;
        }
        QCOMPARE(pages, 1);
    }

    void evidencePackLinksResolve() {
        const QString dir = kOut + "/evidence";
        QDir(dir).removeRecursively();
        const QString report = dir + "/report.md";
        QDir().mkpath(dir);
        const Result r = runCli({"report", m_session, "--format", "markdown", "--screenshots", (dir + "/shots").toStdString(),
                                 "-o", report.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QString md = QString::fromUtf8(readAll(report));
        QVERIFY(md.contains("## Evidence screenshots"));
        auto it = QRegularExpression(R"(!\[([^\]]*)\]\(([^)]+)\))").globalMatch(md);
        int links = 0;
        while (it.hasNext()) {
            const auto m = it.next();
            const QString link = m.captured(2);
            QVERIFY2(!QDir::isAbsolutePath(link), qPrintable(link));
            const QString file = QDir(dir).filePath(link);
            QVERIFY2(QFileInfo::exists(file), qPrintable(file));
            const QImage shot(file);
            QVERIFY(!shot.isNull());
            QVERIFY(inkFraction(shot) > 0.05);
            ++links;
        }
        QVERIFY2(links >= 1, "a checkpoint-bound run has findings");
        QCOMPARE(links, int(QDir(dir + "/shots").entryList({"*.png"}, QDir::Files).size()));
        QCOMPARE(annotationRows(m_session), int64_t(1));
    }

    void annotationPanelZoomsEveryView() {
        gui::MainWindow window;
        window.openSession(QString::fromStdString(m_session));
        auto *list = window.findChild<AnnotationListView *>();
        QVERIFY(list);
        QCOMPARE(list->tree()->model()->rowCount(), 1);
        const Annotation a = AnnotationModel::of(window.session())->annotations().front();
        list->goTo(a.id);
        const NsRange r = window.timeRange()->range();
        QVERIFY(r.start < a.startNs && r.end > a.endNs);
        QVERIFY(r.duration() < (a.endNs - a.startNs) * 2);
    }
};

QTEST_MAIN(TestGuiExport)
#include "tst_gui_export.moc"

// File ▸ Compare With… (issue #13): the open session is the base, a second logdir the new run; the
// compare window fills (header with the change, waterfall bars per moved category, the op delta
// table sorted by time saved, findings resolved), filters, exports with a caption naming both runs;
// its Timelines tab stacks both runs step-aligned with linked zoom; it says which side it could not read.
// Closing it while the new side is imported cancels that import without waiting for it (issue #19).

#include "app/cli/input_session.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/tables/op_delta_table_model.h"
#include "tests/test_support.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <sstream>

using namespace stepscope;

class TestGuiCompare : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_input, m_fixed;

    QString makeLogdir(const char *name, synth::Bottleneck b, int64_t targetEvents = 0) {
        const std::filesystem::path dir = std::filesystem::path(m_dir.path().toStdString()) / name;
        synth::SyntheticProfileOptions o;
        o.steps = 12;
        o.targetEvents = targetEvents;
        o.seed = 9;
        o.bottleneck = b;
        synth::SyntheticProfileGenerator(o).generate(dir / "run.pt.trace.json.gz", dir / "nvidia-smi.csv");
        return QString::fromStdString(dir.string());
    }

    static bool openIn(gui::MainWindow &w, const QString &logdir) {
        QSignalSpy done(&w, &gui::MainWindow::importFinished);
        w.openPaths({logdir});
        return done.wait(120000) && done.first().first().toBool();
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        m_input = makeLogdir("input", synth::Bottleneck::Input);
        m_fixed = makeLogdir("fixed", synth::Bottleneck::None);
    }

    void compareWindowFills() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        QVERIFY(!w.compareWith(m_fixed));  // nothing open: no base
        QVERIFY2(openIn(w, m_input), qPrintable(w.lastError()));
        gui::CompareWindow *c = w.compareWith(m_fixed);
        QVERIFY(c);
        c->resize(1200, 860);
        QSignalSpy done(c, &gui::CompareWindow::finished);
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(c->lastError()));
        CompareView *v = c->view();
        QVERIFY2(v->headerText().contains(QStringLiteral("faster")), qPrintable(v->headerText()));
        QVERIFY(v->findingsText().contains(QStringLiteral("pt_dataloader")));
        const RunComparison &r = v->comparison();
        QVERIFY(r.stepTimeChangePct < -30);
        // Waterfall: base, the input bar (at least), new — each an offset and a visible bar.
        QVERIFY(v->waterfall()->plottableCount() >= 6);
        QTableView *table = v->opTable();
        QVERIFY(table->model()->rowCount() > 20);
        // In the comparison's order, the biggest change per step first: the DataLoader on top.
        QCOMPARE(table->model()->index(0, OpDeltaTableModel::Name).data().toString(),
                 QStringLiteral("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        v->setFilterText(QStringLiteral("cudnn"));
        QVERIFY(table->model()->rowCount() > 0);
        for (int i = 0; i < table->model()->rowCount(); ++i)
            QVERIFY(table->model()->index(i, OpDeltaTableModel::Name).data().toString().contains(QStringLiteral("cudnn"), Qt::CaseInsensitive));
        v->setFilterText({});
        // Export as a user does, from the shown window: the caption names both runs.
        c->show();
        QVERIFY(QTest::qWaitForWindowExposed(c));
        QTest::qWait(50);
        QVERIFY(c->caption().size() == 3 && c->caption()[0].startsWith(QStringLiteral("base: ")) && c->caption()[1].contains(m_fixed));
        QDir().mkpath(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output"));
        const QString png = QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/compare_window.png");
        QVERIFY2(c->exportTo(png).isEmpty(), qPrintable(c->exportTo(png)));
        const QImage img(png);
        QVERIFY2(img.width() > 1100 && img.height() > 800, qPrintable(QStringLiteral("%1x%2").arg(img.width()).arg(img.height())));
        const QString svg = m_dir.filePath(QStringLiteral("compare.svg"));
        QVERIFY(c->exportTo(svg).isEmpty());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("step time"));
        delete c;
    }

    // The Timelines tab: both runs stacked, aligned at a step; zooming either moves the other by the
    // same amount from that step.
    void timelinesAreStepAlignedAndLinked() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        QVERIFY2(openIn(w, m_input), qPrintable(w.lastError()));
        gui::CompareWindow *c = w.compareWith(m_fixed);
        QSignalSpy done(c, &gui::CompareWindow::finished);
        QVERIFY(done.wait(120000));
        QVERIFY(done.first().first().toBool());
        QVERIFY(c->tabs()->isTabEnabled(1));
        AlignedTimelines *t = c->timelines();
        const RunComparison &r = c->view()->comparison();
        QCOMPARE(t->alignedStep(), r.base.stepStarts.front().first);  // the first step both have
        // Aligned at step 5: it starts at the same relative place, the base zoomed to it.
        QVERIFY(t->alignAt(5));
        int64_t base5 = 0, new5 = 0;
        for (const auto &[n, s] : r.base.stepStarts) if (n == 5) base5 = s;
        for (const auto &[n, s] : r.next.stepStarts) if (n == 5) new5 = s;
        QCOMPARE(t->offset(), new5 - base5);
        QVERIFY(t->baseTime()->range().start < base5 && t->baseTime()->range().end > base5);  // the step, with a margin
        QCOMPARE(t->newTime()->range().start - new5, t->baseTime()->range().start - base5);
        QCOMPARE(t->newTime()->range().duration(), t->baseTime()->range().duration());
        // A zoom on the base moves the new run; a pan on the new run moves the base.
        t->baseTime()->setRange({base5 + 1'000'000, base5 + 21'000'000});
        QCOMPARE(t->newTime()->range().start, new5 + 1'000'000);
        QCOMPARE(t->newTime()->range().end, new5 + 21'000'000);
        t->newTime()->setRange({new5 + 5'000'000, new5 + 15'000'000});
        QCOMPARE(t->baseTime()->range().start, base5 + 5'000'000);
        QCOMPARE(t->baseTime()->range().end, base5 + 15'000'000);
        QVERIFY(!t->alignAt(999));  // a step neither has
        c->tabs()->setCurrentIndex(1);
        c->resize(1200, 900);
        c->show();
        QVERIFY(QTest::qWaitForWindowExposed(c));
        QTest::qWait(100);
        const QString png = QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/compare_timelines.png");
        QVERIFY(c->exportTo(png).isEmpty());
        delete c;
    }

    // A folder with two runs (issue #35, item 1): the window offers each side's runs instead of a
    // command-line option, compares the picked ones, and remembers the pick for the next comparison.
    void folderWithTwoRunsOffersAChoice() {
        const std::filesystem::path two = std::filesystem::path(m_dir.path().toStdString()) / "two";
        for (const auto &[file, bottleneck] : {std::pair{"slow.pt.trace.json.gz", synth::Bottleneck::Input},
                                              std::pair{"quick.pt.trace.json.gz", synth::Bottleneck::None}}) {
            synth::SyntheticProfileOptions o;
            o.steps = 12;
            o.seed = 9;
            o.bottleneck = bottleneck;
            synth::SyntheticProfileGenerator(o).generate(two / file, {});
        }
        const QString folder = QString::fromStdString(two.string());
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        QVERIFY2(openIn(w, m_input), qPrintable(w.lastError()));
        gui::CompareWindow *c = w.compareWith(folder);
        QSignalSpy done(c, &gui::CompareWindow::finished);
        QVERIFY(done.wait(120000));
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY2(c->lastError().contains(QStringLiteral("pick")) && !c->lastError().contains(QStringLiteral("--")),
                 qPrintable(c->lastError()));
        QVERIFY(c->runChooser()->isVisibleTo(c));
        QCOMPARE(c->nextRunBox()->count(), 2);
        QVERIFY(!c->baseRunBox()->isEnabled());  // the base holds one run: nothing to pick there
        const int quick = c->nextRunBox()->findText(QStringLiteral("quick"), Qt::MatchContains);
        QVERIFY(quick >= 0);
        c->nextRunBox()->setCurrentIndex(quick);
        const QString picked = c->nextRunBox()->currentText();
        done.clear();
        c->compareChosenRuns();
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().first().toBool(), qPrintable(c->lastError()));
        QCOMPARE(QString::fromStdString(c->view()->comparison().next.run), picked);
        QVERIFY(c->view()->comparison().stepTimeChangePct < -30);  // the quick run is the fixed one
        QVERIFY(c->runChooser()->isVisibleTo(c));                   // and another can still be picked
        delete c;
        // The next comparison with that folder compares the remembered run at once.
        c = w.compareWith(folder);
        QSignalSpy again(c, &gui::CompareWindow::finished);
        QVERIFY(again.wait(120000));
        QVERIFY2(again.first().first().toBool(), qPrintable(c->lastError()));
        QCOMPARE(QString::fromStdString(c->view()->comparison().next.run), picked);
        delete c;
        // The folder compared with itself: never one run with itself; the user picks, the new side
        // offered another run than the base.
        QVERIFY2(openIn(w, folder), qPrintable(w.lastError()));
        c = w.compareWith(folder);
        QSignalSpy itself(c, &gui::CompareWindow::finished);
        QVERIFY(itself.wait(120000));
        QCOMPARE(itself.first().first().toBool(), false);
        QVERIFY(c->baseRunBox()->isEnabled() && c->nextRunBox()->isEnabled());
        QVERIFY(c->baseRunBox()->currentText() != c->nextRunBox()->currentText());
        const QString newSide = c->nextRunBox()->currentText();
        itself.clear();
        c->compareChosenRuns();
        QVERIFY(itself.wait(120000));
        QVERIFY2(itself.first().first().toBool(), qPrintable(c->lastError()));
        delete c;
        // ...and remembered: the same pair again at once.
        c = w.compareWith(folder);
        QSignalSpy again2(c, &gui::CompareWindow::finished);
        QVERIFY(again2.wait(120000));
        QVERIFY2(again2.first().first().toBool(), qPrintable(c->lastError()));
        QCOMPARE(QString::fromStdString(c->view()->comparison().next.run), newSide);
        delete c;
    }

    void unreadableSideIsNamed() {
        gui::MainWindow w(nullptr, gui::MainWindow::Mode::Headless);
        QVERIFY2(openIn(w, m_input), qPrintable(w.lastError()));
        const QString missing = m_dir.filePath(QStringLiteral("no-such-run"));
        gui::CompareWindow *c = w.compareWith(missing);
        QSignalSpy done(c, &gui::CompareWindow::finished);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY2(c->lastError().contains(QStringLiteral("new side")) && c->lastError().contains(missing), qPrintable(c->lastError()));
        QVERIFY(c->exportTo(m_dir.filePath(QStringLiteral("x.png"))).contains(QStringLiteral("not ready")));
        delete c;
    }

    // Closing the window while the new side is being imported cancels the import: nothing arrives
    // afterwards. (How fast it lets go is measured by bench_cancel, not here.)
    void closingDuringTheImportDeliversNothing() {
        const QString big = makeLogdir("big", synth::Bottleneck::None, 600'000);
        QElapsedTimer t;
        t.start();
        {
            SessionStore store(std::filesystem::path(m_dir.filePath(QStringLiteral("big.stepscope")).toStdString()));
            std::ostringstream out, err;
            QCOMPARE(cli::importInto(store, {big.toStdString()}, {out, err, false}), int(cli::Ok));
        }
        const qint64 importMs = t.elapsed();
        auto *c = new gui::CompareWindow;
        QSignalSpy done(c, &gui::CompareWindow::finished);
        bool gone = false;
        connect(c, &QObject::destroyed, this, [&gone] { gone = true; });
        c->start(m_input, big, {});
        QTest::qWait(int(importMs / 4));
        QCOMPARE(done.count(), 0);  // still importing
        delete c;
        QVERIFY(gone);
        QTest::qWait(int(importMs));  // time for the import to have ended, were it not cancelled
        QCOMPARE(done.count(), 0);
    }
};

QTEST_MAIN(TestGuiCompare)
#include "tst_gui_compare.moc"

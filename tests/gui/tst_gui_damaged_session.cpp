// Opening a damaged or tampered session in the window (File ▸ Open): a clear message, an empty
// window that still works, never an abort — whatever part of the file the views reach first.

#include "app/cli/command_line.h"
#include "app/gui/main_window.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/qt/session_model.h"
#include "tests/test_support.h"

#include <QApplication>
#include <QtTest>

#include <fstream>
#include <random>
#include <sstream>

using namespace stepscope;
namespace fs = std::filesystem;

class TestGuiDamagedSession : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_session;

    // A copy of the session with `fraction` of its pages (after the first two) overwritten.
    fs::path damagedCopy(const std::string &name, unsigned seed, double fraction) {
        const fs::path out = fs::path(m_dir.path().toStdString()) / name;
        fs::copy_file(m_session, out, fs::copy_options::overwrite_existing);
        const auto pages = int64_t(fs::file_size(out) / 4096);
        std::mt19937 rng(seed);
        std::fstream f(out, std::ios::in | std::ios::out | std::ios::binary);
        for (int64_t p = 2; p < pages; ++p) {
            if (std::uniform_real_distribution<double>(0, 1)(rng) > fraction) continue;
            std::string junk(4096 - 200, '\0');
            for (char &c : junk) c = char(rng());
            f.seekp(p * 4096 + 100);
            f.write(junk.data(), std::streamsize(junk.size()));
        }
        return out;
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 10;
        const fs::path dir = fs::path(m_dir.path().toStdString()) / "logdir";
        fs::create_directories(dir);
        synth::SyntheticProfileGenerator(o).generate(dir / "run.pt.trace.json.gz", dir / "nvidia-smi.csv");
        m_session = fs::path(m_dir.path().toStdString()) / "s.stepscope";
        std::ostringstream out, err;
        QCOMPARE(cli::run({"import", dir.string(), "-o", m_session.string()}, {out, err, false}), 0);
    }

    void damagedSessionsOpenWithAMessageAndNoAbort() {
        for (unsigned seed = 1; seed <= 6; ++seed) {
            const fs::path file = damagedCopy("d" + std::to_string(seed) + ".stepscope", seed, seed <= 3 ? 0.2 : 0.05);
            gui::MainWindow window(nullptr, gui::MainWindow::Mode::Headless);
            window.resize(1200, 800);
            window.show();
            window.openSession(QString::fromStdString(file.string()));
            // Let every view, loader and background job reach the damage.
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 1500) {
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                QTest::qWait(20);
            }
            window.grab();  // paint everything once
            // Either the damage was met (message, session closed) or it was not reached at all.
            if (!window.lastError().isEmpty()) {
                QVERIFY2(window.lastError().contains(QString::fromStdString(file.filename().string())) ||
                             window.lastError().contains("malformed") || window.lastError().contains("damaged"),
                         qPrintable(window.lastError()));
            }
        }
    }
};

QTEST_MAIN(TestGuiDamagedSession)
#include "tst_gui_damaged_session.moc"

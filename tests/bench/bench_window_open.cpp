// bench_window_open: how long the main window is blocked when a big session opens (DESIGN.md:
// "re-opening an imported session: under 1 s for 10 M events"), and how long until the analysis
// views fill in from the background. Uses bench_timeline's session (run that first), or any file.
//
// A session keeps its analyses (DerivedResults): the first open of a session analysed before, and
// every re-open, reads them back; --fresh forgets them first, so the first open analyses.
//
//   bench_window_open [SESSION] [--fresh] [--width W --height H]
#include "app/gui/main_window.h"
#include "models/analysis/service/analysis_model.h"
#include "models/store/session_reader.h"
#include "models/store/sqlite_statement.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>

#include <cstdio>
#include <filesystem>
#include <string>

using namespace stepscope;

int main(int argc, char **argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir settings;  // never the user's
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    std::filesystem::path file = std::filesystem::temp_directory_path() / "stepscope-bench" / "bench_timeline_10000000.stepscope";
    QSize size(1600, 1000);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--width" && i + 1 < argc) size.setWidth(std::stoi(argv[++i]));
        else if (a == "--height" && i + 1 < argc) size.setHeight(std::stoi(argv[++i]));
        else if (a != "--fresh") file = a;
    }
    if (!std::filesystem::exists(file)) {
        std::fprintf(stderr, "no session %s (run bench_timeline --10m first, or name one)\n", file.c_str());
        return 1;
    }
    bool fresh = false;
    for (int i = 1; i < argc; ++i) fresh = fresh || std::string(argv[i]) == "--fresh";
    if (fresh) {  // forget the stored analyses: the first open analyses and stores them again
        SessionStore store(file);
        sqliteExec(store.db(), "DELETE FROM analysis_result");
    }
    gui::MainWindow window;
    window.resize(size);
    window.show();
    QCoreApplication::processEvents();
    QImage img(size, QImage::Format_ARGB32_Premultiplied);

    // One open of the session: how long the window is blocked, its first frame, and when every run's
    // analysis is there for the step, op and findings views (read back, or analysed in the background).
    auto openOnce = [&](const char *label) {
        int64_t stored = 0;
        {
            SessionStore store(file, SessionStore::Mode::ReadOnly);
            SqliteStatement st(store.db(), "SELECT count(*) FROM analysis_result");
            stored = st.step() ? st.columnInt(0) : 0;
        }
        QElapsedTimer clock;
        clock.start();
        window.session()->setStore(std::make_unique<SessionStore>(file));  // every view reloads here
        const double blocked = clock.nsecsElapsed() / 1e6;
        window.render(&img);
        const double firstFrame = clock.nsecsElapsed() / 1e6;
        int64_t events = 0;
        for (const SourceRow &s : SessionReader(*window.session()->store()).sources()) events += s.events;
        std::printf("%s — session %s: %lld events, %lld stored analyses\n", label, file.filename().c_str(),
                    (long long)events, (long long)stored);
        std::printf("  window blocked while the session opens: %.0f ms; first full frame of the window at %.0f ms\n",
                    blocked, firstFrame);
        AnalysisModel *analysis = AnalysisModel::of(window.session());
        const std::vector<RunRow> runs = analysis->runs();
        bool ready = false;
        while (!ready && clock.elapsed() < 600'000) {
            ready = true;
            for (const RunRow &r : runs) ready = ready && analysis->analysisOrStart(r.id);
            if (!ready) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        window.render(&img);
        std::printf("  step, op and findings views filled in at %.0f ms\n", clock.nsecsElapsed() / 1e6);
    };
    openOnce("open");
    openOnce("re-open");
    return 0;
}

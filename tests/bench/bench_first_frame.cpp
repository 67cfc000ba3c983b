// bench_first_frame: time to first picture (DESIGN.md: a fresh 1 M-event trace shows its timeline
// within 2 s). Opens the given logdir or trace in the main window (offscreen) as a user would and
// measures, from process start and from openPaths(), until the timeline has painted a frame with
// slices in it. The session made from the inputs is removed first, so the import is always fresh.
//
// A fresh import that large first shows a first picture (MainWindow::kPreviewEvents events of each
// trace); --no-first-picture measures the window without it, as it was before.
//
//   stepscope-synth --out /tmp/m --target-events 1000000 --gzip-level 1
//   bench_first_frame [--no-first-picture] [--png FILE] /tmp/m   (--png: the window at its first frame)
#include "app/gui/gui_main.h"
#include "app/gui/main_window.h"
#include "app/gui/import_worker.h"
#include "models/timeline/timeline_model.h"
#include "views/timeline/timeline_pane_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace stepscope;

namespace {
// Milliseconds since the kernel started this process (/proc/self/stat field 22, in clock ticks).
double msSinceProcessStart() {
    std::ifstream stat("/proc/self/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) return -1;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {}
    const double startS = std::stod(field) / double(sysconf(_SC_CLK_TCK));
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return (double(now.tv_sec) + now.tv_nsec / 1e9 - startS) * 1000.0;
}

// Notes the first paint of the timeline that has slices to draw, after the paint is done.
class FirstFrameWatch : public QObject {
public:
    FirstFrameWatch(TimelineView *view) : m_view(view) { view->installEventFilter(this); }
    bool done() const { return m_fromStartMs >= 0; }
    double m_fromStartMs = -1;
    int64_t eventsShown = 0;
    std::function<void()> afterFirstFrame;
    qint64 sinceOpenNs = -1;
    QElapsedTimer sinceOpen;

protected:
    bool eventFilter(QObject *obj, QEvent *e) override {
        if (obj != m_view || e->type() != QEvent::Paint || done() || m_view->model()->sliceCount() == 0) return false;
        m_view->removeEventFilter(this);
        static_cast<QObject *>(m_view)->event(e);  // paint now, then take the time
        sinceOpenNs = sinceOpen.nsecsElapsed();
        eventsShown = m_view->model()->sliceCount();
        m_fromStartMs = msSinceProcessStart();
        if (afterFirstFrame) QTimer::singleShot(0, afterFirstFrame);
        return true;
    }

private:
    TimelineView *m_view;
};
} // namespace

int main(int argc, char **argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_first_frame LOGDIR|TRACE...\n"
                             "  e.g. stepscope-synth --out /tmp/m --target-events 1000000 --gzip-level 1; bench_first_frame /tmp/m\n");
        return 2;
    }
    QApplication app(argc, argv);
    gui::setApplicationIdentity();
    QTemporaryDir home;  // settings and the session folder: never the user's
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, home.path());
    qputenv("XDG_DATA_HOME", home.path().toUtf8());
    QStringList inputs;
    bool firstPicture = true;
    QString png;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--no-first-picture") firstPicture = false;
        else if (std::string(argv[i]) == "--png" && i + 1 < argc) png = QString::fromLocal8Bit(argv[++i]);
        else inputs << QString::fromLocal8Bit(argv[i]);
    }
    gui::removeSessionFiles(gui::MainWindow::sessionPathFor(inputs).toStdString());

    gui::MainWindow window;
    if (!firstPicture) window.setPreviewThreshold(std::numeric_limits<qint64>::max(), 0);
    window.resize(1600, 1000);
    window.show();
    auto *pane = static_cast<TimelinePaneView *>(window.viewWidget("timeline"));
    FirstFrameWatch watch(pane->timeline());
    if (!png.isEmpty()) watch.afterFirstFrame = [&] { window.grab().save(png); };
    bool importDone = false;
    qint64 importNs = 0;
    QObject::connect(&window, &gui::MainWindow::importFinished, [&] {
        importDone = true;
        importNs = watch.sinceOpen.nsecsElapsed();
    });
    const double openAtMs = msSinceProcessStart();
    watch.sinceOpen.start();
    window.openPaths(inputs);
    while (!watch.done() && watch.sinceOpen.elapsed() < 600'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    while (!importDone && watch.sinceOpen.elapsed() < 600'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!watch.done()) {
        std::printf("no timeline frame with data within 10 min\n");
        return 1;
    }
    std::printf("inputs: %s; %lld events in the first frame (%s), %lld in the timeline after the import\n",
                qPrintable(inputs.join(' ')), (long long)watch.eventsShown,
                firstPicture ? "first picture allowed" : "--no-first-picture",
                (long long)pane->timeline()->model()->sliceCount());
    std::printf("  window shown and openPaths() called at %.0f ms after process start\n", openAtMs);
    std::printf("  import finished %.0f ms after openPaths()\n", importNs / 1e6);
    std::printf("  first painted timeline frame with data: %.0f ms after openPaths(), %.0f ms after process start "
                "(target: 2000 ms)\n", watch.sinceOpenNs / 1e6, watch.m_fromStartMs);
    return 0;
}

#include "app/gui/gui_main.h"

#include "app/cli/command_line.h"
#include "app/gui/guarded_application.h"
#include "app/gui/main_window.h"

#include <QApplication>

#include <memory>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace stepscope::gui {

void setApplicationIdentity() {
    QCoreApplication::setOrganizationName("Stepscope");
    QCoreApplication::setApplicationName("Stepscope");
    QCoreApplication::setApplicationVersion(STEPSCOPE_VERSION);
}

namespace {
// Qt ends the process with qFatal (abort, exit 134) when no display can be opened. Say what is
// wrong and what to do instead, and exit with the usage code.
QtMessageHandler g_previousHandler = nullptr;
void displayFailureMessages(QtMsgType type, const QMessageLogContext &context, const QString &msg) {
    if (type == QtFatalMsg) {
        std::cerr << "stepscope: cannot open a window: " << msg.trimmed().section('\n', 0, 0).toStdString()
                  << "\nSet DISPLAY (or WAYLAND_DISPLAY) to a running display, or use the command line: "
                     "stepscope report|export|query … (stepscope --help)\n";
        std::_Exit(cli::Usage);
    }
    if (g_previousHandler) g_previousHandler(type, context, msg);
    else std::cerr << msg.toStdString() << "\n";
}
} // namespace

int runGui(int argc, char **argv, const std::vector<std::string> &args) {
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM")) {
        std::cerr << "stepscope: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set).\n"
                     "Use the command line instead — stepscope report PATH, stepscope export PATH --view NAME -o FILE.png "
                     "(stepscope --help) — or set DISPLAY.\n";
        return cli::Usage;
    }
    g_previousHandler = qInstallMessageHandler(displayFailureMessages);
    GuardedApplication app(argc, argv);
    qInstallMessageHandler(g_previousHandler);
    setApplicationIdentity();
    MainWindow window;
    window.show();
    QStringList paths;
    for (const std::string &a : args) paths << QString::fromStdString(a);
    if (!paths.isEmpty() && paths.front() == QLatin1String("--compare")) {
        // stepscope --compare BASE NEW: BASE opens as usual, then the compare window with NEW.
        if (paths.size() != 3) {
            std::cerr << "stepscope: --compare wants two paths: stepscope --compare BASE NEW\n";
            return cli::Usage;
        }
        const QString next = paths[2];
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection = QObject::connect(&window, &MainWindow::importFinished, &window, [&window, next, connection](bool ok) {
            QObject::disconnect(*connection);
            if (ok) window.compareWith(next);
        });
        window.openPaths({paths[1]});
        if (!window.importWorker()->busy()) {  // a session file opens at once: no import to wait for
            QObject::disconnect(*connection);
            if (window.session()->isOpen()) window.compareWith(next);
        }
        return app.exec();
    }
    if (!paths.isEmpty()) window.openPaths(paths);
    return app.exec();
}

namespace {
// Headless rendering through the offscreen platform makes Qt chatter about things that do not
// matter there (window size hints); the command's own messages stay.
void quietHeadlessMessages(QtMsgType type, const QMessageLogContext &, const QString &msg) {
    if (type == QtDebugMsg || type == QtInfoMsg || msg.contains("propagateSizeHints") || msg.contains("XDG_RUNTIME_DIR"))
        return;
    std::cerr << msg.toStdString() << "\n";
}
} // namespace

int runHeadlessCommand(int argc, char **argv, const std::vector<std::string> &args) {
    // Rendering needs no display: fall back to the offscreen platform when there is none.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    qInstallMessageHandler(quietHeadlessMessages);
    GuardedApplication app(argc, argv);
    setApplicationIdentity();
    return cli::run(args, {std::cout, std::cerr, isatty(STDERR_FILENO) != 0});
}

} // namespace stepscope::gui

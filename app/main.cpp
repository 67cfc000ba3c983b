// Stepscope entry point: a command (import/report/export/query/generate) runs headless; anything
// else opens the GUI on the given paths.

#include "app/cli/command_line.h"
#include "app/gui/gui_main.h"

#include <QCoreApplication>

#include <iostream>
#include <unistd.h>

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (stepscope::cli::isMistypedCommand(args))
        return stepscope::cli::run(args, {std::cout, std::cerr, false});  // says why: a usage error
    if (stepscope::cli::isCommand(args)) {
        // Qt Core is needed for resources and JSON; the export command makes its own QApplication.
        const bool needsGui = args.front() == "export" || (args.front() == "report" &&
            std::find(args.begin(), args.end(), "--screenshots") != args.end());
        if (needsGui) return stepscope::gui::runHeadlessCommand(argc, argv, args);
        QCoreApplication app(argc, argv);
        return stepscope::cli::run(args, {std::cout, std::cerr, isatty(STDERR_FILENO) != 0});
    }
    return stepscope::gui::runGui(argc, argv, args);
}

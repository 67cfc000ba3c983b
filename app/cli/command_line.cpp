#include "app/cli/command_line.h"

#include <ostream>

namespace stepscope::cli {

std::string helpText() {
    return R"(Stepscope — why is my training slower than the GPU allows?

Usage:
  stepscope [PATH...]                       open the GUI (PATH: logdir, trace file, metrics file, or .stepscope)
  stepscope import PATH... -o S.stepscope [--run NAME|all] [--offset SOURCE=±DURATION]...
                                            build a session file, print a summary
  stepscope report PATH... [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]
                   [--preset stepscope|tensorflow|pytorch] [--rules FILE.tsv] [--run NAME|all]
                   [--screenshots DIR]   (markdown: one annotated screenshot per finding)
  stepscope export PATH... --view timeline|steps|ops|findings|utilization|session|log|window
                   [--steps A-B | --range T0:T1] [--run NAME|all]
                   [--annotate "TEXT"] [--size WxH] [--scale 2] [--no-caption] -o FILE.png|.svg|.pdf
  stepscope export --list-views
  stepscope query S.stepscope "SELECT ..." [--format csv|json]      (read-only)
  stepscope --help | --version

The synthetic profile generator is the separate program stepscope-synth (--help).

Exit codes: 0 ok; 1 usage error; 2 input could not be read; 3 partial import (warnings recorded).
)";
}

bool isCommand(const std::vector<std::string> &args) {
    if (args.empty()) return false;
    const std::string &a = args.front();
    return a == "import" || a == "report" || a == "export" || a == "query" || a == "--help" ||
           a == "-h" || a == "--version" || a == "help";
}

int run(const std::vector<std::string> &args, Streams io) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        io.out << helpText();
        return args.empty() ? Usage : Ok;
    }
    if (args[0] == "--version") {
        io.out << "stepscope " << STEPSCOPE_VERSION << "\n";
        return Ok;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "import") return runImport(rest, io);
    if (args[0] == "report") return runReport(rest, io);
    if (args[0] == "query") return runQuery(rest, io);
    if (args[0] == "export") return runExport(rest, io);
    io.err << "stepscope: unknown command '" << args[0] << "'\n\n" << helpText();
    return Usage;
}

} // namespace stepscope::cli

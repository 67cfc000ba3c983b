#include "app/cli/command_line.h"

#include "app/cli/output_file.h"
#include "models/text/printable_text.h"
#include "models/store/sqlite_statement.h"

#include <cerrno>
#include <filesystem>
#include <new>
#include <ostream>

namespace stepscope::cli {

std::string helpText() {
    return R"(Stepscope — why is my training slower than the GPU allows?

Usage:
  stepscope [PATH...]                       open the GUI (PATH: logdir, trace file, metrics file, or .stepscope)
  stepscope --compare BASE NEW              open BASE in the GUI and compare it with NEW
  stepscope import PATH... -o S.stepscope [--run NAME|all] [--offset SOURCE=±DURATION]... [--jobs N]
                   [--no-analysis]          build a session file (with each run's analysis), print a summary
  stepscope report PATH... [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]
                   [--preset stepscope|tensorflow|pytorch] [--rules FILE.tsv] [--run NAME|all] [--jobs N]
                   [--screenshots DIR]   (markdown: one annotated screenshot per finding)
  stepscope export PATH... --view timeline|steps|ops|findings|utilization|session|log|job|window
                   [--steps A-B | --range T0:T1] [--run NAME|all]
                   [--annotate "TEXT"] [--size WxH] [--scale 2] [--no-caption] -o FILE.png|.svg|.pdf
  stepscope export --list-views
  stepscope query S.stepscope "SELECT ..." [--format csv|json]      (read-only)
  stepscope compare BASE NEW [--format text|json|markdown] [--steps A-B] [--batch-size N] [-o FILE]
                   [--base-run NAME] [--new-run NAME] [--jobs N]
                                            before/after: step time, categories, ops, findings
  stepscope --help | --version

--jobs N: files of a job (one trace per rank) imported by N workers (default: the cores).
--follow-links (import, report, export, compare): follow symbolic links inside a folder that lead out
  of it (by default they are listed as skipped in the import log; never followed into /proc, /sys, /dev).
"--" ends the options: every argument after it is a PATH (or the SQL of query).

The synthetic profile generator is the separate program stepscope-synth (--help).

Exit codes: 0 ok; 1 usage error; 2 input could not be read; 3 partial import (warnings recorded).
)";
}

bool isCommand(const std::vector<std::string> &args) {
    if (args.empty()) return false;
    const std::string &a = args.front();
    return a == "import" || a == "report" || a == "export" || a == "query" || a == "compare" || a == "--help" ||
           a == "-h" || a == "--version" || a == "help";
}

bool isMistypedCommand(const std::vector<std::string> &args) {
    if (args.empty() || isCommand(args) || args.front() == "--compare") return false;
    std::error_code ec;
    return !std::filesystem::exists(args.front(), ec) && !std::filesystem::is_symlink(args.front(), ec);
}

namespace {

// One command's part of helpText(): its usage lines (and their continuations), then the notes that
// follow the list of commands.
std::string commandHelp(const std::string &command) {
    const std::string text = helpText();
    std::string usage, notes;
    bool inCommand = false, afterList = false;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? text.size() : end + 1;
        if (line.rfind("  stepscope ", 0) == 0) {
            inCommand = line.rfind("  stepscope " + command + " ", 0) == 0;
        } else if (line.rfind("   ", 0) != 0) {
            inCommand = false;
            afterList = afterList || (!usage.empty() && line.empty());
        }
        if (inCommand) usage += line + "\n";
        else if (afterList) notes += line + "\n";
    }
    return "Usage:\n" + usage + notes;
}

bool asksForHelp(const std::vector<std::string> &args) {
    for (const std::string &a : args) {
        if (a == "--") return false;
        if (a == "--help" || a == "-h") return true;
    }
    return false;
}

int dispatch(const std::vector<std::string> &args, Streams io) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        io.out << helpText();
        return args.empty() ? Usage : Ok;
    }
    if (args[0] == "--version") {
        io.out << "stepscope " << STEPSCOPE_VERSION << "\n";
        return Ok;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (isCommand(args) && asksForHelp(rest)) {  // `stepscope import --help`: that command's usage, exit 0
        io.out << commandHelp(args[0]);
        return Ok;
    }
    if (args[0] == "import") return runImport(rest, io);
    if (args[0] == "report") return runReport(rest, io);
    if (args[0] == "query") return runQuery(rest, io);
    if (args[0] == "export") return runExport(rest, io);
    if (args[0] == "compare") return runCompare(rest, io);
    io.err << "stepscope: '" << printableText(args[0])
           << "' is neither a command (import, report, export, query, compare) nor an existing file or folder\n"
              "Run 'stepscope --help' for the usage.\n";
    return Usage;
}

} // namespace

int run(const std::vector<std::string> &args, Streams io) {
    // One error boundary for every command: whatever a damaged session, a hostile file or the
    // environment throws ends here as a message naming the reason and exit code 2, never a signal.
    int code = Unreadable;
    try {
        code = dispatch(args, io);
    } catch (const StoreError &e) {
        io.err << "stepscope: " << printableText(e.what()) << "\n";
    } catch (const std::filesystem::filesystem_error &e) {
        io.err << "stepscope: " << printableText(e.code().message()) << ": " << printableText(e.path1().string())
               << (e.path2().empty() ? "" : " → " + printableText(e.path2().string())) << "\n";
    } catch (const std::bad_alloc &) {
        io.err << "stepscope: out of memory: the input asks for more memory than this machine has "
                  "(a damaged or tampered file?)\n";
    } catch (const std::exception &e) {
        io.err << "stepscope: " << printableText(e.what()) << "\n";
    }
    errno = 0;
    io.out.flush();
    if (io.out.fail()) {
        const int err = errno;
        io.err << "stepscope: cannot write the output: " << (err ? systemReason(err) : "write error") << "\n";
        return code == Ok || code == Partial ? Unreadable : code;
    }
    return code;
}

} // namespace stepscope::cli

#pragma once
// The command-line front end (DESIGN.md "Command line"): parses arguments, wires importers, store
// and analysis, prints results. Kept in a library so tests call it directly with their own streams.

#include <iosfwd>
#include <string>
#include <vector>

namespace stepscope::cli {

enum ExitCode { Ok = 0, Usage = 1, Unreadable = 2, Partial = 3 };

struct Streams {
    std::ostream &out;
    std::ostream &err;
    bool progress = false;  // progress lines on err (a terminal)
};

// args excludes the program name. Returns the process exit code. Never throws: every error of the
// command (damaged session, file system, out of memory, a failed write to `io.out`) is a message on
// `io.err` and a non-zero code.
int run(const std::vector<std::string> &args, Streams io);

// True when args name a command-line action (so main() should not start the GUI).
bool isCommand(const std::vector<std::string> &args);

// True when the first argument is neither a command nor an existing path ("stepscope compre a b"):
// a usage error, not a file for the GUI to open.
bool isMistypedCommand(const std::vector<std::string> &args);

std::string helpText();

int runImport(const std::vector<std::string> &args, Streams io);
int runReport(const std::vector<std::string> &args, Streams io);
int runQuery(const std::vector<std::string> &args, Streams io);
int runExport(const std::vector<std::string> &args, Streams io);
int runCompare(const std::vector<std::string> &args, Streams io);

} // namespace stepscope::cli

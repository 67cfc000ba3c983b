#pragma once
// Running a command as the user types it, in-process: exit code plus what it printed. Shared by the
// command-line, export and robustness tests.

#include "app/cli/command_line.h"

#include <sstream>
#include <string>
#include <vector>

namespace stepscope::test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string> &args) {
    std::ostringstream out, err;
    const int code = cli::run(args, {out, err, false});
    return {code, out.str(), err.str()};
}

} // namespace stepscope::test

// `stepscope generate ...`: the synthetic profile generator (app/synth) from the main program.
// Filled in once the generator's API is final.
#include "app/cli/command_line.h"

#include <ostream>

namespace stepscope::cli {
int runGenerate(const std::vector<std::string> &, Streams io) {
    io.err << "stepscope generate: use stepscope-synth\n";
    return Usage;
}
} // namespace stepscope::cli

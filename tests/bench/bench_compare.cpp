// bench_compare: `stepscope compare` of two ~1 M-event runs beyond importing them. Target
// (DESIGN.md, issue #13): under 3 s.
//   bench_compare [EVENTS]     (default 1000000)
// Generates the generator's input-bound loop and the same seed without the bottleneck, imports
// both into session files (timed apart), then times `stepscope compare A.stepscope B.stepscope
// --format json` on the two sessions (analysis of both runs, the comparison, the JSON), best of 3.

#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/synth/synthetic_profile_generator.h"

#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <sstream>

using namespace stepscope;

int main(int argc, char **argv) {
    const int64_t events = argc > 1 ? std::stoll(argv[1]) : 1'000'000;
    QTemporaryDir dir;
    std::vector<std::string> sessions;
    double importSeconds = 0;
    for (const auto b : {synth::Bottleneck::Input, synth::Bottleneck::None}) {
        synth::SyntheticProfileOptions o;
        o.targetEvents = events;
        o.bottleneck = b;
        o.gzipLevel = 1;
        const std::string name(synth::bottleneckName(b));
        const std::filesystem::path trace = dir.filePath(QString::fromStdString(name + ".pt.trace.json.gz")).toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        sessions.push_back(dir.filePath(QString::fromStdString(name + ".stepscope")).toStdString());
        const auto t0 = std::chrono::steady_clock::now();
        SessionStore store(sessions.back());
        std::ostringstream out, err;
        cli::importInto(store, {trace}, {out, err, false});
        importSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    double best = 1e9;
    size_t bytes = 0;
    for (int rep = 0; rep < 3; ++rep) {
        std::ostringstream out, err;
        const auto t0 = std::chrono::steady_clock::now();
        const int code = cli::run({"compare", sessions[0], sessions[1], "--format", "json"}, {out, err, false});
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (code != 0) {
            std::fprintf(stderr, "compare failed (%d): %s\n", code, err.str().c_str());
            return 2;
        }
        bytes = out.str().size();
    }
    std::printf("import of both: %.2f s (not counted)\n", importSeconds);
    std::printf("compare: %.3f s (best of 3; target < 3 s), %zu bytes of JSON\n", best, bytes);
    return best < 3.0 ? 0 : 1;
}

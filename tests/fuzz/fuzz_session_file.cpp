// libFuzzer target: a mutated `.stepscope` session opened the way users open one from someone else —
// `report --format json`, `query`, and (when a QApplication exists, as in the fuzzer) `export` of
// the timeline and utilization views. Checks: no crash, hang, UB or leak; every damaged or tampered
// file ends as an exit code with a message, never an exception or a signal.

#include "tests/fuzz/fuzz_support.h"

#include "app/cli/command_line.h"

#include <QApplication>

#include <sstream>

namespace stepscope::fuzz::session_file {

inline void run(const uint8_t *data, size_t size) {
    const auto file = writeScratch("fuzz.stepscope", data, size);
    std::error_code ec;
    for (const char *suffix : {"-wal", "-shm", "-journal"}) std::filesystem::remove(file.string() + suffix, ec);
    std::ostringstream out, err;
    const cli::Streams io{out, err, false};
    cli::run({"report", file.string(), "--format", "json"}, io);
    cli::run({"query", file.string(), "SELECT count(*), sum(dur_ns) FROM v_slice"}, io);
    if (qobject_cast<QApplication *>(QCoreApplication::instance())) {
        const std::string png = (scratchDir() / "fuzz.png").string();
        cli::run({"export", file.string(), "--view", "timeline", "--size", "400x300", "-o", png}, io);
        cli::run({"export", file.string(), "--view", "utilization", "--size", "400x300", "-o", png}, io);
    }
}

} // namespace stepscope::fuzz::session_file

STEPSCOPE_FUZZ_GUI_INIT()

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::session_file::run)

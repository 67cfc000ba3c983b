// libFuzzer target: the command line itself. The input is split at newlines into at most 16
// arguments and run as `stepscope ARGS` in a scratch folder that holds a tiny trace (t.json), a
// metrics log (m.csv) and a session (s.stepscope, restored before each run). '/' is replaced so every
// path the fuzzer makes stays inside that folder. Checks: no crash, hang, UB or leak, and every run
// ends with a documented exit code (0–3).

#include "tests/fuzz/fuzz_support.h"

#include "app/cli/command_line.h"

#include <QApplication>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace stepscope::fuzz::command_line {

namespace fs = std::filesystem;

inline const fs::path &workDir() {
    static const fs::path dir = [] {
        const fs::path d = scratchDir() / "cwd";
        fs::create_directories(d);
        std::ofstream(d / "t.json") << R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":20,"args":{"correlation":3}},
 {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":35,"dur":50,"args":{"device":0,"stream":7,"correlation":3}}]})";
        std::ofstream(d / "m.csv") << "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
                                      "2026/01/15 10:00:00.000, 0, H100, 87 %, 1000 MiB\n"
                                      "2026/01/15 10:00:00.100, 0, H100, 91 %, 1002 MiB\n";
        std::ostringstream o, e;
        cli::run({"import", (d / "t.json").string(), (d / "m.csv").string(), "-o", (d / "pristine.stepscope").string()},
                 {o, e, false});
        // Relative paths the fuzzer makes (outputs, --screenshots folders) land here and nowhere else.
        if (::chdir(d.c_str()) != 0) std::abort();
        return d;
    }();
    return dir;
}

inline void run(const uint8_t *data, size_t size) {
    const fs::path &dir = workDir();
    // Everything the previous input wrote goes; the fixtures come back as they were.
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name != "t.json" && name != "m.csv" && name != "pristine.stepscope") fs::remove_all(entry.path(), ec);
    }
    fs::copy_file(dir / "pristine.stepscope", dir / "s.stepscope", fs::copy_options::overwrite_existing, ec);
    std::vector<std::string> args(1);
    for (size_t i = 0; i < size && args.size() <= 16; ++i) {
        const char c = char(data[i]);
        if (c == '\n') args.emplace_back();
        else args.back() += c == '/' ? '_' : c;
    }
    if (args.size() > 16) args.resize(16);
    if (!args.empty() && args.front() != "import" && args.front() != "report" && args.front() != "export" &&
        args.front() != "query" && args.front().rfind("-", 0) != 0)
        return;  // anything else opens the GUI in the real program
    if (!args.empty() && args.front() == "export" && !qobject_cast<QApplication *>(QCoreApplication::instance())) return;
    std::ostringstream out, err;
    const int code = cli::run(args, {out, err, false});
    if (code < 0 || code > 3) std::abort();  // not a documented exit code
}

} // namespace stepscope::fuzz::command_line

STEPSCOPE_FUZZ_GUI_INIT()

STEPSCOPE_FUZZ_ENTRY(stepscope::fuzz::command_line::run)

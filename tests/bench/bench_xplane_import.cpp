// Benchmark of XPlaneImporter against ChromeTraceImporter on the same training loop.
//
//   bench_xplane_import [--events N] [--dir DIR] [--keep]
//
// Generates a Kineto-style trace of ~N events (default 1,000,000) with the synthetic profile
// generator and converts the same loop into an XPlane logdir (writeXPlaneLogdir). Then, each in a
// fresh child process (so peak RSS is that run's own), imports the .xplane.pb and the .json.gz into
// new sessions and prints, per importer, slices written, seconds, slices/s, peak RSS and the ratio.
// Events/s here are timeline slices per second, the unit both importers share (the Chrome file
// also holds metadata and flow events, which the XPlane file expresses as stats).

#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_logdir_writer.h"
#include "importers/chrome/chrome_trace_importer.h"
#include "importers/xplane/xplane_importer.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Child: imports `file` with the importer named by `mode` into `session`; prints "slices seconds".
int runChild(const std::string &mode, const fs::path &file, const fs::path &session) {
    fs::remove(session);
    const double t0 = now();
    SessionStore store(session);
    SessionWriter w(store);
    w.begin();
    ChromeTraceImporter chrome;
    XPlaneImporter xplane;
    Importer &imp = mode == "xplane" ? static_cast<Importer &>(xplane) : static_cast<Importer &>(chrome);
    const int64_t src = w.addSource(file.string(), imp.format(), int64_t(fs::file_size(file)));
    ImportContext ctx(w, src, file.string());
    const ImportResult r = imp.import(file, ctx);
    w.finishSource(src, r.events, ctx.warnings(), r.status);
    w.commit();
    std::printf("%lld %.6f\n", static_cast<long long>(r.events), now() - t0);
    return r.status == SourceStatus::Ok ? 0 : 3;
}

struct Measurement {
    bool ok = false;
    long long slices = 0;
    double seconds = 0;
    long peakRssKb = 0;
};

Measurement measure(const char *mode, const fs::path &file, const fs::path &session) {
    Measurement m;
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return m;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        const std::string self = fs::read_symlink("/proc/self/exe").string();
        execl(self.c_str(), self.c_str(), "--child", mode, file.c_str(), session.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(pipefd[1]);
    char buf[128] = {};
    const ssize_t n = read(pipefd[0], buf, sizeof buf - 1);
    close(pipefd[0]);
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    m.peakRssKb = ru.ru_maxrss;
    m.ok = n > 0 && std::sscanf(buf, "%lld %lf", &m.slices, &m.seconds) == 2;
    return m;
}

void report(const char *what, const Measurement &m, const fs::path &file) {
    if (!m.ok) {
        std::printf("  %-7s failed\n", what);
        return;
    }
    std::error_code ec;
    std::printf("  %-7s %9lld slices  %7.3f s  %10.0f events/s  file %7.1f MB  peak RSS %6.1f MB\n", what, m.slices,
                m.seconds, double(m.slices) / m.seconds, double(fs::file_size(file, ec)) / 1e6, m.peakRssKb / 1024.0);
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 5 && std::strcmp(argv[1], "--child") == 0)
        return runChild(argv[2], argv[3], argv[4]);
    long long events = 1'000'000;
    fs::path dir = fs::temp_directory_path() / "stepscope-bench-xplane";
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::atoll(argv[++i]);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--keep")
            keep = true;
        else {
            std::fprintf(stderr, "usage: %s [--events N] [--dir DIR] [--keep]\n", argv[0]);
            return 1;
        }
    }
    fs::create_directories(dir);
    synth::SyntheticProfileOptions o;
    o.targetEvents = events;
    o.gzipLevel = 1;
    const fs::path chrome = dir / "bench.pt.trace.json.gz";
    const double g0 = now();
    const synth::SyntheticProfileStats st = synth::SyntheticProfileGenerator(o).generate(chrome, {});
    const synth::XPlaneLogdirResult x = synth::writeXPlaneLogdir(o, dir / "logdir", {}, chrome);
    std::printf("generated in %.1f s: chrome %lld trace events (%d steps x %d kernels), xplane %lld events, %.1f MB\n",
                now() - g0, static_cast<long long>(st.events), int(st.steps), st.kernelsPerStep,
                static_cast<long long>(x.xplane.events), double(x.xplane.bytes) / 1e6);
    const Measurement mx = measure("xplane", x.file, dir / "xplane.stepscope");
    const Measurement mc = measure("chrome", chrome, dir / "chrome.stepscope");
    report("xplane", mx, x.file);
    report("chrome", mc, chrome);
    if (mx.ok && mc.ok)
        std::printf("  xplane/chrome time per slice: %.2f (below 1 = xplane faster)\n",
                    (mx.seconds / double(mx.slices)) / (mc.seconds / double(mc.slices)));
    if (!keep)
        fs::remove_all(dir);
    return mx.ok && mc.ok ? 0 : 2;
}

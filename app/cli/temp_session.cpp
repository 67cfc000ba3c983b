#include "app/cli/temp_session.h"

#include "app/cli/output_file.h"
#include "models/text/printable_text.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <random>
#include <signal.h>
#include <unistd.h>

namespace stepscope::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char *kSuffixes[] = {"", "-wal", "-shm", "-journal"};
constexpr size_t kSlots = 8;
constexpr size_t kMaxPath = 4096;

// Fixed storage the signal handler can read without allocating: one path per slot, "" when free.
struct Slot {
    std::atomic<bool> claimed{false};  // taken by a TempSession (path being written or written)
    std::atomic<bool> ready{false};    // path complete: the signal handler may unlink it
    char path[kMaxPath] = {};
};
std::array<Slot, kSlots> g_slots;
const int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void unlinkAll(const char *base) {
    if (!base[0]) return;
    char buf[kMaxPath + 16];
    for (const char *suffix : kSuffixes) {
        const size_t n = std::strlen(base), m = std::strlen(suffix);
        if (n + m + 1 > sizeof buf) continue;
        std::memcpy(buf, base, n);
        std::memcpy(buf + n, suffix, m + 1);
        ::unlink(buf);
    }
}

extern "C" void onTerminatingSignal(int sig) {
    for (Slot &s : g_slots)
        if (s.ready.load()) unlinkAll(s.path);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void installHandlersOnce() {
    static const bool installed = [] {
        for (int sig : kSignals) {
            struct sigaction old {};
            if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // keep "ignored"
            struct sigaction sa {};
            sa.sa_handler = onTerminatingSignal;
            sigemptyset(&sa.sa_mask);
            ::sigaction(sig, &sa, nullptr);
        }
        return true;
    }();
    (void)installed;
}

// "stepscope-<pid>-<random>.stepscope" → pid, or 0 for other names.
long ownerPid(const std::string &name) {
    if (name.rfind("stepscope-", 0) != 0) return 0;
    const size_t dash = name.find('-', 10);
    if (dash == std::string::npos) return 0;
    char *end = nullptr;
    const long pid = std::strtol(name.c_str() + 10, &end, 10);
    return end == name.c_str() + dash ? pid : 0;
}

} // namespace

int TempSession::removeStale(const fs::path &folder) {
    int removed = 0;
    std::error_code ec;
    for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const long pid = ownerPid(name);
        if (pid <= 0 || pid == long(::getpid())) continue;
        if (::kill(pid_t(pid), 0) == 0 || errno == EPERM) continue;  // that process still runs
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

fs::path TempSession::create(std::string &error) {
    std::error_code ec;
    const fs::path folder = fs::temp_directory_path(ec);
    if (ec) {
        const char *env = std::getenv("TMPDIR");
        error = "no usable temporary folder" + (env ? " (TMPDIR=" + printableText(env) + ")" : std::string()) + ": " +
                ec.message() + "; set TMPDIR to a writable folder";
        return {};
    }
    removeStale(folder);
    std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^ uint64_t(::getpid()));
    const fs::path file = folder / ("stepscope-" + std::to_string(::getpid()) + "-" + std::to_string(rng()) + ".stepscope");
    if (file.native().size() + 16 >= kMaxPath) {
        error = "temporary folder path too long: " + printableText(folder.string());
        return {};
    }
    removeOnSignal(file);  // more scratch sessions than slots: removed at the end, not on a signal
    return file;
}

bool TempSession::removeOnSignal(const fs::path &file) {
    if (file.native().size() + 16 >= kMaxPath) return false;
    installHandlersOnce();
    for (Slot &s : g_slots) {
        bool expected = false;
        if (!s.claimed.compare_exchange_strong(expected, true)) continue;
        std::memcpy(s.path, file.c_str(), file.native().size() + 1);
        s.ready.store(true);
        return true;
    }
    return false;
}

void TempSession::forget(const fs::path &file) {
    for (Slot &s : g_slots)
        if (s.ready.load() && file.native() == s.path) {
            s.ready.store(false);
            s.path[0] = '\0';
            s.claimed.store(false);
        }
}

void TempSession::release(const fs::path &file) {
    if (file.empty()) return;
    unlinkAll(file.c_str());
    forget(file);
}

} // namespace stepscope::cli

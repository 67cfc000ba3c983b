#pragma once
// The benchmarks measure each run in a child process of their own, so its peak RSS is that run's
// alone: runSelfAsChild re-executes this program with `args` ("--child", mode, ...), returns what the
// child printed on stdout and its peak RSS (wait4's ru_maxrss).

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::bench {

struct ChildRun {
    bool started = false;
    std::string out;     // the child's stdout
    long peakRssKb = 0;
};

inline ChildRun runSelfAsChild(const std::vector<std::string> &args) {
    ChildRun r;
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return r;
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::vector<char *> argv{const_cast<char *>(self.c_str())};
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        execv(self.c_str(), argv.data());
        _exit(127);
    }
    close(pipefd[1]);
    char buf[512];
    for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;)
        r.out.append(buf, size_t(n));
    close(pipefd[0]);
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    r.started = pid > 0;
    r.peakRssKb = ru.ru_maxrss;
    return r;
}

} // namespace stepscope::bench

#pragma once
// Runs part of a test in a forked child: for what must not happen to the test process itself (a
// signal, a file-size limit) or needs another user (root ignores file permissions). The child sends
// back a text and its exit status.

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace stepscope::test {

struct ChildResult {
    int status = 0;   // as from waitpid: WIFEXITED/WEXITSTATUS, WIFSIGNALED/WTERMSIG
    std::string out;  // what `body` returned (or wrote before a signal ended it: nothing)
};

// `body` returns the text to send back; `exitCode` (when set) is then the child's exit code.
// With `unprivileged`, a root test process runs `body` as uid/gid 65534; nullopt when that fails.
inline std::optional<ChildResult> runInChild(const std::function<std::string(int &exitCode)> &body,
                                             bool unprivileged = false) {
    int fds[2];
    if (::pipe(fds) != 0) return std::nullopt;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string out;
        int exitCode = 0;
        if (unprivileged && ::geteuid() == 0 &&
            (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)) {
            out = "<cannot drop privileges>";
        } else {
            try {
                out = body(exitCode);
            } catch (const std::exception &e) {
                out = std::string("error: ") + e.what();
            }
        }
        if (::write(fds[1], out.data(), out.size()) < 0) ::_exit(125);
        ::_exit(exitCode);
    }
    ::close(fds[1]);
    ChildResult r;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) r.out.append(buf, size_t(n));
    ::close(fds[0]);
    ::waitpid(pid, &r.status, 0);
    if (r.out == "<cannot drop privileges>") return std::nullopt;
    return r;
}

} // namespace stepscope::test

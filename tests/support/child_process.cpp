#include "tests/child_process.h"

#include <grp.h>
#include <unistd.h>

#include <stdexcept>

namespace stepscope::test {

std::optional<ChildResult> runInChild(const std::function<std::string(int &exitCode)> &body, bool unprivileged) {
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

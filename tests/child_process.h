#pragma once
// Runs part of a test in a forked child: for what must not happen to the test process itself (a
// signal, a file-size limit) or needs another user (root ignores file permissions). The child sends
// back a text and its exit status. Compiled once into stepscope_test_support (tests/support/).

#include <sys/wait.h>  // WIFEXITED, WEXITSTATUS, WIFSIGNALED, WTERMSIG for the callers
#include <unistd.h>

#include <functional>
#include <optional>
#include <string>

namespace stepscope::test {

struct ChildResult {
    int status = 0;   // as from waitpid: WIFEXITED/WEXITSTATUS, WIFSIGNALED/WTERMSIG
    std::string out;  // what `body` returned (or wrote before a signal ended it: nothing)
};

// `body` returns the text to send back; `exitCode` (when set) is then the child's exit code.
// With `unprivileged`, a root test process runs `body` as uid/gid 65534; nullopt when that fails.
std::optional<ChildResult> runInChild(const std::function<std::string(int &exitCode)> &body, bool unprivileged = false);

} // namespace stepscope::test

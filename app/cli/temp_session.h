#pragma once
// TempSession: the scratch session file that report/export build for inputs that are not a session.
// Its files (the session, -wal, -shm, -journal) are removed when the command ends, when it is
// interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the handler unlinks them, then the signal takes its
// default course), and — for a run that was killed outright — by the next command, which removes
// scratch sessions whose process no longer exists. The folder is $TMPDIR (or /tmp); a missing or
// unusable one is a clear error, never an exception.

#include <filesystem>
#include <string>

namespace stepscope::cli {

class TempSession {
public:
    // Picks a new path in the temporary folder and registers it for removal; empty with `error` set
    // when there is no usable temporary folder.
    static std::filesystem::path create(std::string &error);
    // Removes the files and forgets the path.
    static void release(const std::filesystem::path &file);
    // A file this process is creating elsewhere (import's new session): its files are removed if a
    // terminating signal arrives before forget(). False when no slot is free (then it is not).
    static bool removeOnSignal(const std::filesystem::path &file);
    static void forget(const std::filesystem::path &file);
    // Removes scratch sessions left by processes that no longer run; returns how many files.
    static int removeStale(const std::filesystem::path &folder);
};

} // namespace stepscope::cli

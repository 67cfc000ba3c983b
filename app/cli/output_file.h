#pragma once
// OutputFile: what every command does before and while writing a file the user named with -o.
// An output that is one of the inputs (the same file by inode, reached through any path, symlink or
// hard link) is refused: before anything is read for the paths named, and again before writing for
// the files a folder import actually read; writes are checked to the end (close included), so a full disk or /dev/full is an error.

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::cli {

class OutputFile {
public:
    // Empty when `output` may be written; otherwise why not ("… is one of the inputs").
    static std::string refuseIfInput(const std::string &output, const std::vector<std::string> &inputs);
    // Writes `text` to `path`; false with `error` set (naming the file and the system's reason).
    static bool write(const std::string &path, const std::string &text, std::string &error);
};

// The system's reason for the last failed call ("No space left on device"), from errno.
std::string systemReason(int errnoValue);

} // namespace stepscope::cli

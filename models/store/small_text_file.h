#pragma once
// Reads a small text file given by the user (rules tables and the like) whole, refusing what is not
// one: a FIFO, device or folder (e.g. /dev/zero, which never ends), or a file over the size limit.
// Errors name the file and the reason.

#include <cstdint>
#include <string>

namespace stepscope {

inline constexpr int64_t kSmallTextFileLimit = 4 << 20;  // 4 MiB: a rules table is a few KB

// Throws std::runtime_error "<path>: <what> <reason>", e.g. "/dev/zero: rules file is a character
// device, not a regular file".
std::string readSmallTextFile(const std::string &path, const std::string &what, int64_t limit = kSmallTextFileLimit);

} // namespace stepscope

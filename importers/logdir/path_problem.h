#pragma once
// Words for why a path the user gave (or one found in a folder) cannot be read, for the import log
// and the command line. A system error code alone says "No such file or directory" for a link that
// leads nowhere and "Permission denied" with a capital: these functions say what is wrong in the
// user's terms. Used by LogdirScanner; tests call them directly (root cannot provoke EACCES).

#include <filesystem>
#include <string>
#include <system_error>

#include <sys/types.h>

namespace stepscope {

// A failed stat/open/list of a path, as text: "permission denied", "symbolic link loop", ...
std::string pathErrorText(const std::error_code &ec);
inline std::string pathErrorText(int errnoValue) { return pathErrorText(std::error_code(errnoValue, std::generic_category())); }

// Why a path that exists is not a file we read, from its stat mode: "not a regular file (FIFO)".
// Empty for a regular file or a folder.
std::string fileTypeText(mode_t mode);

// Why `path` cannot be stat'ed (stat failed with `ec`): a dangling or looping symbolic link is named
// as such (with where it points), anything else through pathErrorText.
std::string unreachablePathText(const std::filesystem::path &path, const std::error_code &ec);

} // namespace stepscope

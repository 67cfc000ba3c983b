#include "importers/logdir/path_problem.h"

#include <cerrno>

#include <sys/stat.h>

namespace stepscope {

std::string pathErrorText(const std::error_code &ec) {
    if (!ec) return {};
    if (ec.category() == std::generic_category() || ec.category() == std::system_category()) {
        switch (ec.value()) {
        case EACCES:
        case EPERM: return "permission denied";
        case ELOOP: return "symbolic link loop (too many levels of symbolic links)";
        case ENOENT: return "does not exist";
        case ENOTDIR: return "a part of the path is not a folder";
        case ENAMETOOLONG: return "path too long";
        case EIO: return "read error (I/O error on the device)";
        case EMFILE:
        case ENFILE: return "too many open files";
        case ENXIO:
        case ENODEV: return "no such device (a device or socket file without a reader)";
        case EISDIR: return "is a folder";
        default: break;
        }
    }
    std::string text = ec.message();
    if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = char(text[0] - 'A' + 'a');
    return text;
}

std::string fileTypeText(mode_t mode) {
    if (S_ISREG(mode) || S_ISDIR(mode)) return {};
    if (S_ISFIFO(mode)) return "not a regular file (FIFO)";
    if (S_ISSOCK(mode)) return "not a regular file (socket)";
    if (S_ISCHR(mode)) return "not a regular file (character device)";
    if (S_ISBLK(mode)) return "not a regular file (block device)";
    return "not a regular file";
}

std::string unreachablePathText(const std::filesystem::path &path, const std::error_code &ec) {
    struct stat ls {};
    const bool isLink = ::lstat(path.c_str(), &ls) == 0 && S_ISLNK(ls.st_mode);
    if (isLink) {
        std::error_code rec;
        const std::filesystem::path target = std::filesystem::read_symlink(path, rec);
        const std::string to = rec ? std::string() : " (points to " + target.string() + ")";
        if (ec.value() == ENOENT) return "dangling symbolic link: its target does not exist" + to;
        if (ec.value() == ELOOP) return "symbolic link loop: following it never reaches a file or folder" + to;
    }
    return pathErrorText(ec);
}

} // namespace stepscope

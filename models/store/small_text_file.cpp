#include "models/store/small_text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace stepscope {
namespace {

const char *fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

} // namespace

std::string readSmallTextFile(const std::string &path, const std::string &what, int64_t limit) {
    const auto fail = [&](const std::string &reason) { return std::runtime_error(path + ": " + what + " " + reason); };
    // O_NONBLOCK: opening a FIFO with no writer must not block before the type check below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw fail(std::string("cannot be read: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const std::string kind = fileKind(st.st_mode);
        ::close(fd);
        throw fail(std::string("is ") + kind + ", not a regular file");
    }
    if (st.st_size > limit) {
        ::close(fd);
        throw fail("is " + std::to_string(st.st_size) + " bytes, over the " + std::to_string(limit) + "-byte limit");
    }
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw fail(std::string("cannot be read: ") + std::strerror(err));
        }
        if (n == 0) break;
        text.append(buf, size_t(n));
        if (int64_t(text.size()) > limit) {  // grew while being read
            ::close(fd);
            throw fail("grew past " + std::to_string(limit) + " bytes while being read");
        }
    }
    ::close(fd);
    return text;
}

} // namespace stepscope

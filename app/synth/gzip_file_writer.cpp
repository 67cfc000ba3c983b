#include "app/synth/gzip_file_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace stepscope::synth {

GzipFileWriter::GzipFileWriter(const std::filesystem::path &path, int level) : path_(path), out_(1 << 18) {
    std::error_code ec;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    file_ = std::fopen(path.string().c_str(), "wb");
    if (!file_)
        fail("cannot open for writing");
    level = std::clamp(level, 0, 9);
    // windowBits 15 + 16: gzip wrapper; deflateInit2 writes a header with mtime 0 and no name.
    if (deflateInit2(&zs_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        fail("cannot initialise zlib", false);
    zsOpen_ = true;
}

GzipFileWriter::~GzipFileWriter() {
    if (zsOpen_)
        deflateEnd(&zs_);
    if (file_)
        std::fclose(file_);
}

void GzipFileWriter::fail(const char *what, bool withErrno) const {
    std::string msg = path_.string() + ": " + what;
    if (withErrno && errno)
        msg += std::string(" (") + std::strerror(errno) + ")";
    throw std::runtime_error(msg);
}

void GzipFileWriter::deflateChunk(int flush) {
    int rc = Z_OK;
    do {
        zs_.next_out = out_.data();
        zs_.avail_out = static_cast<uInt>(out_.size());
        rc = deflate(&zs_, flush);
        errno = 0;
        if (rc == Z_STREAM_ERROR)
            fail("zlib deflate failed", false);
        const size_t have = out_.size() - zs_.avail_out;
        if (have && std::fwrite(out_.data(), 1, have, file_) != have)
            fail("write failed");
        bytesOut_ += static_cast<int64_t>(have);
    } while (zs_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
}

void GzipFileWriter::write(std::string_view bytes) {
    bytesIn_ += static_cast<int64_t>(bytes.size());
    while (!bytes.empty()) {
        const size_t n = std::min<size_t>(bytes.size(), 1u << 30);
        zs_.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
        zs_.avail_in = static_cast<uInt>(n);
        deflateChunk(Z_NO_FLUSH);
        bytes.remove_prefix(n);
    }
}

void GzipFileWriter::finish() {
    zs_.next_in = nullptr;
    zs_.avail_in = 0;
    deflateChunk(Z_FINISH);
    deflateEnd(&zs_);
    zsOpen_ = false;
    errno = 0;
    const bool bad = std::fflush(file_) != 0 || std::ferror(file_);
    const int closeRc = std::fclose(file_);
    file_ = nullptr;
    if (bad || closeRc != 0)
        fail("write failed");
}

} // namespace stepscope::synth

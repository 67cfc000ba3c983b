#pragma once
// GzipFileWriter: owns one output file and a zlib deflate stream with a gzip wrapper. The Chrome trace
// writer calls it with chunks of JSON so that traces of any size stream to disk in constant memory.
// The gzip header carries no time stamp or name, so equal input gives byte-identical files.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <vector>

#include <zlib.h>

namespace stepscope::synth {

class GzipFileWriter {
public:
    // Creates parent folders and opens the file; throws std::runtime_error naming the path.
    GzipFileWriter(const std::filesystem::path &path, int level);
    ~GzipFileWriter();
    GzipFileWriter(const GzipFileWriter &) = delete;
    GzipFileWriter &operator=(const GzipFileWriter &) = delete;

    void write(std::string_view bytes);
    // Flushes the deflate stream, closes the file; throws on a write error. Called once.
    void finish();

    int64_t bytesIn() const { return bytesIn_; }
    int64_t bytesOut() const { return bytesOut_; }

private:
    void deflateChunk(int flush);
    [[noreturn]] void fail(const char *what, bool withErrno = true) const;

    std::filesystem::path path_;
    std::FILE *file_ = nullptr;
    z_stream zs_{};
    bool zsOpen_ = false;
    std::vector<unsigned char> out_;
    int64_t bytesIn_ = 0;
    int64_t bytesOut_ = 0;
};

} // namespace stepscope::synth

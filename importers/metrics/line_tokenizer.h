#pragma once
// LineTokenizer hands out the lines of a (possibly gzip) file one at a time over ByteSource, so the
// metric importers stream files of any size. It strips "\r\n"/"\n", counts lines (1-based), tracks
// bytes consumed for progress, and cuts absurdly long lines (binary junk) instead of growing
// without bound. Owned by each metric importer for the duration of one import.

#include "importers/common/byte_source.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

class LineTokenizer {
public:
    static constexpr size_t kMaxLine = size_t(16) << 20;  // 16 MiB

    explicit LineTokenizer(const std::filesystem::path &file) : m_src(file) {}

    // Next line without its terminator; false at the end of data (check ok()/error()).
    bool next(std::string_view &line);
    int64_t lineNumber() const { return m_line; }  // of the line last returned
    bool lastLineTruncated() const { return m_truncated; }  // cut at kMaxLine
    bool ok() const { return m_src.ok(); }
    const std::string &error() const { return m_src.error(); }
    int64_t fileSize() const { return m_src.fileSize(); }
    int64_t bytesRead() const { return m_src.compressedOffset(); }
    int64_t totalBytesSeen() const { return m_bytesSeen; }  // expanded bytes handed out in lines

private:
    ByteSource m_src;
    std::vector<char> m_chunk;
    std::string m_buf;
    size_t m_pos = 0;
    bool m_eof = false;
    bool m_truncated = false;
    int64_t m_line = 0;
    int64_t m_bytesSeen = 0;
};

} // namespace stepscope::metrics

#include "importers/common/byte_source.h"

#include <cstring>

namespace stepscope {

namespace {
constexpr size_t kInChunk = 256 * 1024;
}

ByteSource::ByteSource(const std::filesystem::path &file) : m_path(file.string()) {
    m_file = std::fopen(m_path.c_str(), "rb");
    if (!m_file) {
        m_errorCode = ImportLogCode::CannotOpen;
        m_error = m_path + ": cannot open: " + std::strerror(errno);
        m_eof = true;
        return;
    }
    std::error_code ec;
    m_fileSize = int64_t(std::filesystem::file_size(file, ec));
    unsigned char magic[2] = {0, 0};
    const size_t n = std::fread(magic, 1, 2, m_file);
    std::rewind(m_file);
    m_gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_gzip) {
        // 15 + 32: zlib or gzip header auto-detection; concatenated members handled in readGzip.
        if (inflateInit2(&m_zs, 15 + 32) != Z_OK) {
            m_errorCode = ImportLogCode::CannotOpen;
            m_error = m_path + ": cannot initialise gzip decoder";
            m_eof = true;
            return;
        }
        m_zsInit = true;
        m_inBuf.resize(kInChunk);
    }
}

ByteSource::~ByteSource() {
    if (m_zsInit) inflateEnd(&m_zs);
    if (m_file) std::fclose(m_file);
}

bool ByteSource::read(std::vector<char> &out, size_t max) {
    out.clear();
    if (m_eof || !m_file) return false;
    const bool got = m_gzip ? readGzip(out, max) : readRaw(out, max);
    m_expandedOffset += int64_t(out.size());
    return got;
}

bool ByteSource::readRaw(std::vector<char> &out, size_t max) {
    out.resize(max);
    const size_t n = std::fread(out.data(), 1, max, m_file);
    out.resize(n);
    m_compressedOffset += int64_t(n);
    if (n == 0) {
        if (std::ferror(m_file)) {
            m_errorCode = ImportLogCode::ReadError;
            m_error = m_path + ": read error at byte " + std::to_string(m_compressedOffset);
        }
        m_eof = true;
        return false;
    }
    return true;
}

bool ByteSource::readGzip(std::vector<char> &out, size_t max) {
    out.resize(max);
    size_t produced = 0;
    while (produced < max) {
        if (m_zs.avail_in == 0) {
            const size_t n = std::fread(m_inBuf.data(), 1, m_inBuf.size(), m_file);
            if (n == 0) {
                // Input ended inside a gzip member: the file was cut short.
                if (m_zs.total_in > 0 || produced > 0 || m_expandedOffset > 0) {
                    m_errorCode = ImportLogCode::TruncatedGzip;
                    m_error = m_path + ": truncated gzip: compressed data ends at byte " +
                              std::to_string(m_compressedOffset) + " before the end of the stream (" +
                              std::to_string(m_expandedOffset + int64_t(produced)) + " bytes decoded)";
                }
                m_eof = true;
                break;
            }
            m_zs.next_in = m_inBuf.data();
            m_zs.avail_in = unsigned(n);
        }
        m_zs.next_out = reinterpret_cast<Bytef *>(out.data() + produced);
        m_zs.avail_out = unsigned(max - produced);
        const unsigned inBefore = m_zs.avail_in;
        const int rc = inflate(&m_zs, Z_NO_FLUSH);
        m_compressedOffset += int64_t(inBefore - m_zs.avail_in);
        produced = max - m_zs.avail_out;
        if (rc == Z_STREAM_END) {
            // Another gzip member may follow (concatenated .gz files are valid gzip).
            if (m_zs.avail_in == 0) {
                const int c = std::fgetc(m_file);
                if (c == EOF) { m_eof = true; break; }
                std::ungetc(c, m_file);
            }
            inflateReset(&m_zs);
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_errorCode = ImportLogCode::CorruptGzip;
            m_error = m_path + ": corrupt gzip data near compressed byte " + std::to_string(m_compressedOffset) +
                      " (" + (m_zs.msg ? m_zs.msg : "inflate error") + ")";
            m_eof = true;
            break;
        }
        const int64_t expanded = m_expandedOffset + int64_t(produced);
        if (expanded > m_maxExpanded ||
            (expanded > (int64_t(1) << 30) && m_compressedOffset > 0 && expanded / m_compressedOffset > m_maxRatio)) {
            m_errorCode = ImportLogCode::DecompressionLimit;
            m_error = m_path + ": decompression limit: expands past " + std::to_string(expanded) +
                      " bytes from " + std::to_string(m_compressedOffset) +
                      " compressed bytes; refusing a possible decompression bomb";
            m_eof = true;
            break;
        }
    }
    out.resize(produced);
    return produced > 0;
}

std::string ByteSource::peek(const std::filesystem::path &file, size_t max, std::string *error) {
    ByteSource src(file);
    std::string head;
    std::vector<char> buf;
    while (head.size() < max && src.read(buf, max - head.size())) head.append(buf.data(), buf.size());
    if (error) *error = src.error();
    return head;
}

} // namespace stepscope

#pragma once
// ByteSource reads a file in chunks, transparently un-gzipping it when its first bytes are the gzip
// magic (content decides, not the name). It caps the expanded size (decompression bombs) and reports
// truncated or corrupt gzip as an error with the compressed byte offset, after handing out every byte
// that could be decoded. Tokenizers pull chunks from it; nothing holds the whole file in memory.

#include "models/store/import_log_code.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <zlib.h>

namespace stepscope {

class ByteSource {
public:
    static constexpr int64_t kDefaultMaxExpandedBytes = int64_t(64) << 30;  // 64 GiB
    // expanded / compressed, checked past 1 GiB. Deflate tops out near 1032:1, so the cap must sit
    // well below that to ever fire; real traces compress 5-30:1.
    static constexpr int64_t kDefaultMaxRatio = 250;

    explicit ByteSource(const std::filesystem::path &file);
    ~ByteSource();
    ByteSource(const ByteSource &) = delete;
    ByteSource &operator=(const ByteSource &) = delete;

    bool ok() const { return m_error.empty(); }          // no error so far
    const std::string &error() const { return m_error; } // names position and reason
    ImportLogCode errorCode() const { return m_errorCode; } // what the error is, for import_log
    bool isGzip() const { return m_gzip; }
    int64_t fileSize() const { return m_fileSize; }
    int64_t compressedOffset() const { return m_compressedOffset; } // bytes of the file consumed
    int64_t expandedOffset() const { return m_expandedOffset; }     // bytes handed out so far

    void setLimits(int64_t maxExpandedBytes, int64_t maxRatio) { m_maxExpanded = maxExpandedBytes; m_maxRatio = maxRatio; }

    // Fills `out` with up to `max` next bytes (replacing its contents). Returns false at the end of
    // data or on error (check ok()).
    bool read(std::vector<char> &out, size_t max = 1 << 20);

    // First bytes of the (decompressed) content without consuming them, for sniffing.
    static std::string peek(const std::filesystem::path &file, size_t max = 4096, std::string *error = nullptr);

private:
    bool readRaw(std::vector<char> &out, size_t max);
    bool readGzip(std::vector<char> &out, size_t max);

    std::string m_path;
    FILE *m_file = nullptr;
    bool m_gzip = false;
    bool m_eof = false;
    z_stream m_zs{};
    bool m_zsInit = false;
    std::vector<unsigned char> m_inBuf;
    int64_t m_fileSize = 0;
    int64_t m_compressedOffset = 0;
    int64_t m_expandedOffset = 0;
    int64_t m_maxExpanded = kDefaultMaxExpandedBytes;
    int64_t m_maxRatio = kDefaultMaxRatio;
    std::string m_error;
    ImportLogCode m_errorCode = ImportLogCode::Unspecified;
};

} // namespace stepscope

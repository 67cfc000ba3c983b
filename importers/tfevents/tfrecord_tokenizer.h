#pragma once
// TfRecordTokenizer owns the TFRecord framing of a TensorBoard event file: records of
// [u64 length][masked CRC-32C of the length][payload][masked CRC-32C of the payload], read in chunks
// through ByteSource (gzip by content), so a file of any size streams. A payload whose CRC does not
// match is reported (bad()) and skipped, the rest kept; a length whose CRC does not match, or an
// absurd length, stops reading (the framing cannot be trusted past it); a record cut short at the
// end (a file still being written) ends reading quietly. Called by TfEventsImporter; the CRC helpers
// are public for tests and for sniffing.

#include "importers/common/byte_source.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

class TfRecordTokenizer {
public:
    enum class Status { Record, BadRecord, End, Error };
    static constexpr uint64_t kMaxRecordBytes = uint64_t(256) << 20;

    explicit TfRecordTokenizer(const std::filesystem::path &file);

    // Record: payload() holds it. BadRecord: payload CRC mismatch, skipped (message() says where).
    // End: clean end or a truncated last record (truncated() tells). Error: message() says why.
    Status next();
    std::string_view payload() const { return m_payload; }
    int64_t recordOffset() const { return m_recordOffset; }  // byte offset of the current record
    int64_t recordIndex() const { return m_index; }          // 0-based
    const std::string &message() const { return m_message; }
    bool truncated() const { return m_truncated; }
    int64_t fileSize() const { return m_source.fileSize(); }

    static uint32_t crc32c(const void *data, size_t size);
    static uint32_t masked(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u; }
    // True when `head` starts with a record whose length CRC verifies (cheap content sniff).
    static bool looksLikeRecord(std::string_view head);

private:
    bool fill(size_t need);  // makes m_buf hold `need` bytes from m_pos; false at end of data

    ByteSource m_source;
    std::vector<char> m_buf;
    std::vector<char> m_chunk;
    size_t m_pos = 0;
    int64_t m_consumed = 0;  // file bytes before m_buf[0]
    std::string m_payload;
    int64_t m_recordOffset = 0;
    int64_t m_index = -1;
    std::string m_message;
    bool m_truncated = false;
    bool m_done = false;
};

} // namespace stepscope

#include "importers/tfevents/tfrecord_tokenizer.h"

#include <array>
#include <cstring>

namespace stepscope {
namespace {

std::array<uint32_t, 256> makeTable() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ ((c & 1) ? 0x82F63B78u : 0u);  // Castagnoli, reflected
        t[i] = c;
    }
    return t;
}

uint64_t le64(const char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | uint8_t(p[i]);
    return v;
}


uint32_t read32(const char *p) {
    return uint32_t(uint8_t(p[0])) | uint32_t(uint8_t(p[1])) << 8 | uint32_t(uint8_t(p[2])) << 16 |
           uint32_t(uint8_t(p[3])) << 24;
}

} // namespace

uint32_t TfRecordTokenizer::crc32c(const void *data, size_t size) {
    static const std::array<uint32_t, 256> table = makeTable();
    const auto *p = static_cast<const uint8_t *>(data);
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; ++i)
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

bool TfRecordTokenizer::looksLikeRecord(std::string_view head) {
    if (head.size() < 12)
        return false;
    const uint64_t len = le64(head.data());
    return len > 0 && len <= kMaxRecordBytes && masked(crc32c(head.data(), 8)) == read32(head.data() + 8);
}

TfRecordTokenizer::TfRecordTokenizer(const std::filesystem::path &file) : m_source(file) {
    if (!m_source.ok()) {
        m_message = m_source.error();
        m_done = true;
    }
}

bool TfRecordTokenizer::fill(size_t need) {
    while (m_buf.size() - m_pos < need) {
        if (m_pos > 0 && m_pos >= (m_buf.size() >> 1)) {
            m_buf.erase(m_buf.begin(), m_buf.begin() + std::ptrdiff_t(m_pos));
            m_consumed += int64_t(m_pos);
            m_pos = 0;
        }
        if (!m_source.read(m_chunk))
            return false;
        m_buf.insert(m_buf.end(), m_chunk.begin(), m_chunk.end());
    }
    return true;
}

TfRecordTokenizer::Status TfRecordTokenizer::next() {
    if (m_done)
        return m_message.empty() || m_truncated ? Status::End : Status::Error;
    m_recordOffset = m_consumed + int64_t(m_pos);
    auto finish = [&](bool cut) {
        m_done = true;
        if (!m_source.ok()) {
            m_message = m_source.error();
            return Status::Error;
        }
        if (cut) {
            m_truncated = true;
            m_message = "record " + std::to_string(m_index + 1) + " at byte " + std::to_string(m_recordOffset) +
                        " is cut short by the end of the file";
        }
        return Status::End;
    };
    if (!fill(12))
        return finish(m_buf.size() > m_pos);
    const char *h = m_buf.data() + m_pos;
    const uint64_t len = le64(h);
    if (masked(crc32c(h, 8)) != read32(h + 8)) {
        m_done = true;
        m_message = "record " + std::to_string(m_index + 1) + " at byte " + std::to_string(m_recordOffset) +
                    ": length CRC mismatch; the framing cannot be followed past this point";
        return Status::Error;
    }
    if (len > kMaxRecordBytes) {
        m_done = true;
        m_message = "record " + std::to_string(m_index + 1) + " at byte " + std::to_string(m_recordOffset) +
                    ": length " + std::to_string(len) + " is beyond the " + std::to_string(kMaxRecordBytes >> 20) +
                    " MiB a scalar reader accepts";
        return Status::Error;
    }
    if (!fill(12 + size_t(len) + 4))
        return finish(true);
    ++m_index;
    const char *p = m_buf.data() + m_pos + 12;
    const uint32_t stored = read32(p + len);
    m_pos += 12 + size_t(len) + 4;
    if (masked(crc32c(p, size_t(len))) != stored) {
        m_message = "record " + std::to_string(m_index) + " at byte " + std::to_string(m_recordOffset) +
                    ": payload CRC mismatch; record skipped";
        return Status::BadRecord;
    }
    m_payload.assign(p, size_t(len));
    return Status::Record;
}

} // namespace stepscope

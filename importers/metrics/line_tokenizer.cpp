#include "importers/metrics/line_tokenizer.h"

namespace stepscope::metrics {

bool LineTokenizer::next(std::string_view &line) {
    m_truncated = false;
    while (true) {
        size_t nl = m_buf.find('\n', m_pos);
        if (nl != std::string::npos || m_eof || m_buf.size() - m_pos >= kMaxLine) {
            size_t end = nl;
            if (end == std::string::npos) {
                if (m_pos >= m_buf.size()) return false;  // end of data
                end = std::min(m_buf.size(), m_pos + kMaxLine);
                m_truncated = !m_eof || end < m_buf.size();
            }
            line = std::string_view(m_buf).substr(m_pos, end - m_pos);
            if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
            m_bytesSeen += int64_t(end - m_pos) + (nl != std::string::npos ? 1 : 0);
            m_pos = nl != std::string::npos ? nl + 1 : end;
            ++m_line;
            if (m_line == 1 && line.size() >= 3 && (unsigned char)line[0] == 0xEF &&
                (unsigned char)line[1] == 0xBB && (unsigned char)line[2] == 0xBF)
                line.remove_prefix(3);  // UTF-8 byte-order mark
            return true;
        }
        // Need more data: drop consumed bytes, then append the next chunk.
        m_buf.erase(0, m_pos);
        m_pos = 0;
        if (!m_src.read(m_chunk)) {
            m_eof = true;
            continue;
        }
        m_buf.append(m_chunk.data(), m_chunk.size());
    }
}

} // namespace stepscope::metrics

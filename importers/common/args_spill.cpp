#include "importers/common/args_spill.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace stepscope {

ArgsSpill::~ArgsSpill() {
    if (m_file)
        std::fclose(m_file);
}

void ArgsSpill::append(std::string_view text) {
    if (text.empty())
        return;
    if (m_mem.size() + text.size() > kMemoryBlock && !m_mem.empty() && !m_fileFailed)
        flush();
    m_mem.insert(m_mem.end(), text.begin(), text.end());
}

void ArgsSpill::flush() {
    if (!m_file) {
        m_file = std::tmpfile();  // anonymous: removed by the system when closed
        if (!m_file) {
            m_fileFailed = true;  // no temp space: keep everything in memory instead
            return;
        }
    }
    if (std::fwrite(m_mem.data(), 1, m_mem.size(), m_file) != m_mem.size()) {
        m_fileFailed = true;  // disk full: what is already in the file stays valid
        return;
    }
    m_fileBytes += int64_t(m_mem.size());
    m_mem.clear();
}

void ArgsSpill::rewind() {
    m_readBuf.clear();
    m_readPos = 0;
    m_fileRead = 0;
    m_memPos = 0;
    if (m_file) {
        std::fflush(m_file);
        std::fseek(m_file, 0, SEEK_SET);
    }
}

std::string_view ArgsSpill::next(uint32_t len) {
    if (len == 0)
        return {};
    const int64_t fileLeft = m_fileBytes - m_fileRead;
    const size_t buffered = m_readBuf.size() - m_readPos;
    if (buffered > 0 || fileLeft > 0) {
        // Texts never straddle the file and the memory block (flushes happen between appends).
        if (buffered < len) {
            m_readBuf.erase(m_readBuf.begin(), m_readBuf.begin() + std::ptrdiff_t(m_readPos));
            m_readPos = 0;
            const size_t want = size_t(std::min<int64_t>(fileLeft, int64_t(std::max<size_t>(len, 4 << 20))));
            const size_t old = m_readBuf.size();
            m_readBuf.resize(old + want);
            const size_t got = std::fread(m_readBuf.data() + old, 1, want, m_file);
            m_readBuf.resize(old + got);
            m_fileRead += int64_t(got);
            if (m_readBuf.size() < len)
                return {};  // the temp file lost data; the slice is written without args
        }
        std::string_view out(m_readBuf.data() + m_readPos, len);
        m_readPos += len;
        return out;
    }
    if (m_memPos + len > m_mem.size())
        return {};
    std::string_view out(m_mem.data() + m_memPos, len);
    m_memPos += len;
    return out;
}

} // namespace stepscope

#pragma once
// ArgsSpill keeps the raw `args` JSON text of every buffered slice until the slices are written,
// without holding it all in RAM: texts are appended in arrival order to a memory block that is
// flushed to an anonymous temporary file when it fills, and read back once, in the same order.
// Owned by TraceEventBuffer; read by TraceEventWriter.

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace stepscope {

class ArgsSpill {
public:
    // Small enough that one write to the temp file is short (the parse runs between cancel polls).
    static constexpr size_t kMemoryBlock = size_t(4) << 20;

    ArgsSpill() = default;
    ~ArgsSpill();
    ArgsSpill(const ArgsSpill &) = delete;
    ArgsSpill &operator=(const ArgsSpill &) = delete;

    void append(std::string_view text);
    int64_t totalBytes() const { return m_fileBytes + int64_t(m_mem.size()); }
    int64_t spilledBytes() const { return m_fileBytes; }

    // Sequential read-back: call rewind() once, then next(len) for each appended text in order.
    void rewind();
    std::string_view next(uint32_t len);

private:
    void flush();

    std::vector<char> m_mem;
    FILE *m_file = nullptr;
    bool m_fileFailed = false;
    int64_t m_fileBytes = 0;
    // read state
    std::vector<char> m_readBuf;
    size_t m_readPos = 0;
    int64_t m_fileRead = 0;
    size_t m_memPos = 0;
};

} // namespace stepscope

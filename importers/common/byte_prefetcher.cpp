#include "importers/common/byte_prefetcher.h"

namespace stepscope {

BytePrefetcher::BytePrefetcher(ByteSource &source) : m_source(source) {
    m_thread = WorkerThread([this] { run(); });
}

BytePrefetcher::~BytePrefetcher() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

void BytePrefetcher::run() {
    while (true) {
        std::vector<char> chunk;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stop || m_ready.size() < kQueuedChunks; });
            if (m_stop)
                break;
            if (!m_free.empty()) {
                chunk = std::move(m_free.back());
                m_free.pop_back();
            }
        }
        const bool got = m_source.read(chunk, kChunkBytes);
        m_compressed.store(m_source.compressedOffset(), std::memory_order_relaxed);
        std::lock_guard lock(m_mutex);
        if (got)
            m_ready.push_back(std::move(chunk));
        if (!got) {
            m_done = true;
            m_cv.notify_all();
            break;
        }
        m_cv.notify_all();
    }
}

bool BytePrefetcher::next(std::vector<char> &out) {
    std::unique_lock lock(m_mutex);
    m_cv.wait(lock, [&] { return !m_ready.empty() || m_done; });
    if (m_ready.empty())
        return false;
    if (out.capacity() > 0)
        m_free.push_back(std::move(out));
    out = std::move(m_ready.front());
    m_ready.pop_front();
    m_cv.notify_all();
    return true;
}

} // namespace stepscope

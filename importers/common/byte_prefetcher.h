#pragma once
// BytePrefetcher runs a ByteSource on a worker thread, a few chunks ahead of its consumer, so that
// reading and un-gzipping overlap with tokenizing on another core. The queue is bounded (memory
// stays a few MiB); destroying the prefetcher stops the worker. Used by ChromeTraceImporter; any
// importer that pulls chunks from a ByteSource can use it.

#include "importers/common/byte_source.h"
#include "models/concurrency/worker_thread.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace stepscope {

class BytePrefetcher {
public:
    static constexpr size_t kChunkBytes = size_t(1) << 20;
    static constexpr size_t kQueuedChunks = 4;

    explicit BytePrefetcher(ByteSource &source);
    ~BytePrefetcher();
    BytePrefetcher(const BytePrefetcher &) = delete;
    BytePrefetcher &operator=(const BytePrefetcher &) = delete;

    // Next chunk into `out` (its old storage is recycled); false at the end of data or on error.
    bool next(std::vector<char> &out);
    // Valid once next() has returned false.
    bool ok() const { return m_source.ok(); }
    const std::string &error() const { return m_source.error(); }
    // Bytes of the file consumed / decompressed bytes handed to the consumer so far.
    int64_t compressedOffset() const { return m_compressed.load(std::memory_order_relaxed); }

private:
    void run();

    ByteSource &m_source;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::vector<char>> m_ready;
    std::vector<std::vector<char>> m_free;
    bool m_done = false;
    bool m_stop = false;
    std::atomic<int64_t> m_compressed{0};
    WorkerThread m_thread;  // last: joined before the queue it reads goes
};

} // namespace stepscope

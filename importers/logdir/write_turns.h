#pragma once
// WriteTurns orders the writes of a parallel import: the files of one import are numbered in input
// order, any worker may read file i at any time, but it writes to the session only in turn i — after
// every file before it has finished — so the session comes out row for row the same whatever the
// number of workers. finish(i) ends file i's turn (or gives it up unused); abort() wakes every
// waiter with WriteTurnsAborted (another worker's write failed). Used by SessionImporter.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace stepscope {

struct WriteTurnsAborted : std::runtime_error {
    WriteTurnsAborted() : std::runtime_error("the import was stopped by an error in another file") {}
};

class WriteTurns {
public:
    explicit WriteTurns(size_t count) : m_finished(count, false) {}

    // Blocks until every file before i has finished; throws WriteTurnsAborted after abort().
    void wait(size_t i) {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_aborted || m_next >= i; });
        if (m_aborted) throw WriteTurnsAborted();
    }
    void finish(size_t i) {
        {
            std::lock_guard lock(m_mutex);
            m_finished[i] = true;
            while (m_next < m_finished.size() && m_finished[m_next]) ++m_next;
        }
        m_changed.notify_all();
    }
    void abort() {
        {
            std::lock_guard lock(m_mutex);
            m_aborted = true;
        }
        m_changed.notify_all();
    }

    // Ends turn i when it goes out of scope, however the file's import ended.
    struct Guard {
        WriteTurns &turns;
        size_t i;
        ~Guard() { turns.finish(i); }
    };

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<bool> m_finished;
    size_t m_next = 0;
    bool m_aborted = false;
};

} // namespace stepscope

#pragma once
// BoundedQueue hands items from one producer thread to one consumer thread, holding at most
// `capacity` of them so a fast producer cannot run ahead in memory. The producer calls finish()
// when it has pushed everything; the consumer calls cancel() to stop the producer early (push()
// then returns false at once, also when it was waiting for room). pop() waits at most a given
// time so the consumer can keep reporting progress and polling its own cancel flag meanwhile.
// Used by TraceEventWriter to feed row batches from its producer thread to the SQLite writer.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

namespace stepscope {

template <class T>
class BoundedQueue {
public:
    enum class Pop { Item, TimedOut, Finished };

    explicit BoundedQueue(size_t capacity) : m_capacity(capacity < 1 ? 1 : capacity) {}

    // Producer: waits for room; false (item not queued) once the consumer has cancelled.
    bool push(T item) {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [&] { return m_cancelled || m_items.size() < m_capacity; });
        if (m_cancelled)
            return false;
        m_items.push_back(std::move(item));
        m_cv.notify_all();
        return true;
    }

    // Producer: nothing more will come; the consumer drains what is queued, then gets Finished.
    void finish() {
        std::lock_guard lock(m_mutex);
        m_finished = true;
        m_cv.notify_all();
    }

    // Consumer: the next item (Item), nothing within `wait` (TimedOut), or Finished once the
    // producer has finished and the queue is empty.
    Pop pop(T &out, std::chrono::milliseconds wait) {
        std::unique_lock lock(m_mutex);
        if (!m_cv.wait_for(lock, wait, [&] { return !m_items.empty() || m_finished; }))
            return Pop::TimedOut;
        if (m_items.empty())
            return Pop::Finished;
        out = std::move(m_items.front());
        m_items.pop_front();
        m_cv.notify_all();
        return Pop::Item;
    }

    // Consumer: stop the producer; queued items are dropped.
    void cancel() {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        m_items.clear();
        m_cv.notify_all();
    }

    bool cancelled() const {
        std::lock_guard lock(m_mutex);
        return m_cancelled;
    }

private:
    const size_t m_capacity;
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<T> m_items;
    bool m_finished = false;
    bool m_cancelled = false;
};

} // namespace stepscope

#include "models/timeline/timeline_window_loader.h"

#include "models/store/session_store.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

namespace stepscope {

struct TimelineWindowLoader::Queue {
    std::mutex mutex;
    std::condition_variable wake, idle;
    std::deque<Request> requests;
    std::vector<Result> results;
    size_t busy = 0;  // requests taken by the worker and not yet in results
};

TimelineWindowLoader::TimelineWindowLoader(QObject *parent) : QObject(parent) {}

TimelineWindowLoader::~TimelineWindowLoader() { close(); }

bool TimelineWindowLoader::open(const std::filesystem::path &file) {
    close();
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec)) return false;
    // Try the connection here first, so a file SQLite cannot share says so now, not later.
    try {
        SessionStore::openReadOnlyConnection(file);
    } catch (const StoreError &) {
        return false;
    }
    m_queue = std::make_shared<Queue>();
    m_job.start([file, queue = m_queue, this](const CancelToken &cancel) { return run(file, queue, cancel, this); });
    return true;
}

void TimelineWindowLoader::close() {
    if (!m_queue) return;
    m_job.cancel();  // interrupts the read in progress and wakes the worker; does not wait for it
    std::lock_guard lock(m_queue->mutex);
    m_queue->requests.clear();
    m_queue->results.clear();
    m_queue->busy = 0;
    m_queue->idle.notify_all();
    m_queue.reset();
}

void TimelineWindowLoader::request(const Request &r) {
    if (!m_queue) return;
    {
        std::lock_guard lock(m_queue->mutex);
        bool replaced = false;
        for (Request &q : m_queue->requests)
            if (q.trackId == r.trackId) {
                q = r;
                replaced = true;
            }
        if (!replaced) m_queue->requests.push_back(r);
    }
    m_queue->wake.notify_one();
}

std::vector<TimelineWindowLoader::Result> TimelineWindowLoader::take() {
    if (!m_queue) return {};
    std::lock_guard lock(m_queue->mutex);
    return std::exchange(m_queue->results, {});
}

bool TimelineWindowLoader::waitIdle(int timeoutMs) {
    if (!m_queue) return true;
    Queue &q = *m_queue;
    std::unique_lock lock(q.mutex);
    return q.idle.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&q] { return q.requests.empty() && q.busy == 0; });
}

BackgroundJob::Deliver TimelineWindowLoader::run(const std::filesystem::path &file, const std::shared_ptr<Queue> &queue,
                                                 const CancelToken &cancel, TimelineWindowLoader *self) {
    SessionConnection conn;
    try {
        conn = SessionStore::openReadOnlyConnection(file);
    } catch (const StoreError &) {
        // Every request of this loader then comes back marked failed.
    }
    std::optional<SliceReader> reader;  // its statements prepared once for every request
    if (conn.db()) reader.emplace(conn);
    conn.setBusyTimeout(std::chrono::milliseconds(2000));
    // Cancelling stops the statement in progress and wakes the wait for the next request (under the
    // queue's lock, so the wake cannot fall between the check and the wait).
    cancel.setInterrupt([&conn, &q = *queue] {
        conn.interrupt();
        std::lock_guard lock(q.mutex);
        q.wake.notify_all();
    });
    for (;;) {
        Request r;
        {
            std::unique_lock lock(queue->mutex);
            queue->wake.wait(lock, [&] { return cancel.cancelled() || !queue->requests.empty(); });
            if (cancel.cancelled()) break;
            r = queue->requests.front();
            queue->requests.pop_front();
            ++queue->busy;
        }
        Result result;
        if (reader) {
            result = read(*reader, r);
        } else {
            result.request = r;
            result.failed = true;
        }
        {
            std::lock_guard lock(queue->mutex);
            if (cancel.cancelled()) break;  // closed while reading (maybe interrupted): the result is stale
            queue->results.push_back(std::move(result));
            --queue->busy;
            if (queue->requests.empty() && queue->busy == 0) queue->idle.notify_all();
        }
        // Posted to the loader: dropped with it, and ignored after a close() or a newer open().
        QMetaObject::invokeMethod(self, [self, queue] {
            if (self->m_queue == queue) emit self->ready();
        }, Qt::QueuedConnection);
    }
    cancel.setInterrupt({});  // before the connection closes
    return {};
}

TimelineWindowLoader::Result TimelineWindowLoader::read(SliceReader &reader, const Request &r) {
    Result result;
    result.request = r;
    try {
        result.slices = TimelineSliceCache::querySlices(reader, r.trackId, r.lo, r.hi);
        result.flows = TimelineSliceCache::queryFlows(reader, r.trackId, r.lo, r.hi);
    } catch (const std::exception &) {  // StoreError, bad_alloc from a damaged page, or interrupted: never end the loop
        result.slices.clear();
        result.flows.clear();
        result.failed = true;
    }
    return result;
}

} // namespace stepscope

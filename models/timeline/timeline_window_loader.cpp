#include "models/timeline/timeline_window_loader.h"

#include "models/store/session_store.h"


#include <chrono>

namespace stepscope {

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
    m_stop = false;
    m_worker = std::thread([this, file] { run(file); });
    return true;
}

void TimelineWindowLoader::close() {
    if (!m_worker.joinable()) return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_queue.clear();
    }
    m_wake.notify_all();
    m_worker.join();
    std::lock_guard lock(m_mutex);
    m_results.clear();
    m_busy = 0;
    m_idle.notify_all();
}

void TimelineWindowLoader::request(const Request &r) {
    {
        std::lock_guard lock(m_mutex);
        bool replaced = false;
        for (Request &q : m_queue)
            if (q.trackId == r.trackId) {
                q = r;
                replaced = true;
            }
        if (!replaced) m_queue.push_back(r);
    }
    m_wake.notify_one();
}

std::vector<TimelineWindowLoader::Result> TimelineWindowLoader::take() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_results, {});
}

bool TimelineWindowLoader::waitIdle(int timeoutMs) {
    std::unique_lock lock(m_mutex);
    return m_idle.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_queue.empty() && m_busy == 0; });
}

void TimelineWindowLoader::run(std::filesystem::path file) {
    SessionConnection conn;
    try {
        conn = SessionStore::openReadOnlyConnection(file);
    } catch (const StoreError &) {
        // Every request of this loader then comes back marked failed.
    }
    sqlite3 *db = conn.db();
    const bool ok = db != nullptr;
    conn.setBusyTimeout(std::chrono::milliseconds(2000));
    for (;;) {
        Request r;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_stop) break;
            r = m_queue.front();
            m_queue.pop_front();
            ++m_busy;
        }
        Result result;
        if (ok) {
            result = read(db, r);
        } else {
            result.request = r;
            result.failed = true;
        }
        {
            std::lock_guard lock(m_mutex);
            m_results.push_back(std::move(result));
            --m_busy;
            if (m_queue.empty() && m_busy == 0) m_idle.notify_all();
        }
        QMetaObject::invokeMethod(this, &TimelineWindowLoader::ready, Qt::QueuedConnection);
    }
}

TimelineWindowLoader::Result TimelineWindowLoader::read(sqlite3 *db, const Request &r) const {
    Result result;
    result.request = r;
    try {
        result.slices = TimelineSliceCache::querySlices(db, r.trackId, r.lo, r.hi);
        result.flows = TimelineSliceCache::queryFlows(db, r.trackId, r.lo, r.hi);
    } catch (const std::exception &) {  // StoreError, or bad_alloc from a damaged page: never end the thread
        result.slices.clear();
        result.flows.clear();
        result.failed = true;
    }
    return result;
}

} // namespace stepscope

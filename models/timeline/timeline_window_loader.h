#pragma once
// TimelineWindowLoader reads exact slice windows (and their flows) for the timeline on a worker
// thread, over its own read-only connection to the session file, so no frame ever waits for SQLite:
// while a window is on its way the track is drawn from its summary (density blocks that count every
// event), and ready() asks for one more frame when it has arrived. One pending request per track —
// a newer request replaces an older one not yet started (panning fast reads only where it stops).
// Owned by TimelineModel; results are collected with take() on the model's thread.

#include "models/timeline/timeline_slice_cache.h"

#include <QObject>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct sqlite3;

namespace stepscope {

class TimelineWindowLoader : public QObject {
    Q_OBJECT
public:
    struct Request {
        int64_t trackId = 0;
        int64_t lo = 0, hi = 0;  // relative, half-open: slices starting in [lo, hi)
        uint64_t generation = 0;  // the model's load count: results of an older session are dropped
    };
    struct Result {
        Request request;
        std::vector<RawSlice> slices;
        std::vector<RawFlow> flows;
        bool failed = false;  // the file could not be read (busy, gone): the summary stays
    };

    explicit TimelineWindowLoader(QObject *parent = nullptr);
    ~TimelineWindowLoader() override;

    // Opens a read-only connection to `file` on the worker; false (and synchronous loading stays
    // with the caller) when there is no file to share, e.g. an in-memory session.
    bool open(const std::filesystem::path &file);
    void close();
    bool isOpen() const { return m_worker.joinable(); }

    void request(const Request &r);
    std::vector<Result> take();
    // Blocks until every request made so far has been read (or timeoutMs passed); true when idle.
    bool waitIdle(int timeoutMs);

signals:
    void ready();  // results are waiting in take(); emitted from the worker thread (queued)

private:
    void run(std::filesystem::path file);
    Result read(sqlite3 *db, const Request &r) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<Request> m_queue;
    std::vector<Result> m_results;
    size_t m_busy = 0;  // requests taken by the worker and not yet in m_results
    bool m_stop = false;
    std::thread m_worker;
};

} // namespace stepscope

#pragma once
// TimelineWindowLoader reads exact slice windows (and their flows) for the timeline on a worker
// thread, over its own read-only connection to the session file, so no frame ever waits for SQLite:
// while a window is on its way the track is drawn from its summary (density blocks that count every
// event), and ready() asks for one more frame when it has arrived. One pending request per track —
// a newer request replaces an older one not yet started (panning fast reads only where it stops).
// The worker is one long BackgroundJob (issue #19 item 1) serving a queue: close() and the
// destructor cancel it without waiting (its token interrupts the connection and wakes the queue), and
// each open() gets a fresh queue, so a closed session's late results are dropped, never taken.
// Owned by TimelineModel; results are collected with take() on the model's thread.

#include "models/qt/background_job.h"
#include "models/timeline/timeline_slice_cache.h"

#include <QObject>

#include <filesystem>
#include <memory>
#include <vector>

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
    bool isOpen() const { return m_queue != nullptr; }

    void request(const Request &r);
    std::vector<Result> take();
    // Blocks until every request made so far has been read (or timeoutMs passed); true when idle.
    // For tests and TimelineModel::finishLoading(); painting never waits for a window.
    bool waitIdle(int timeoutMs);

signals:
    void ready();  // results are waiting in take(); emitted on the loader's thread

private:
    struct Queue;  // requests and results of one open(), shared with its worker
    static BackgroundJob::Deliver run(const std::filesystem::path &file, const std::shared_ptr<Queue> &queue,
                                      const CancelToken &cancel, TimelineWindowLoader *self);
    static Result read(SliceReader &reader, const Request &r);

    std::shared_ptr<Queue> m_queue;  // null while closed
    BackgroundJob m_job;             // last: destroyed (its worker told to stop) first
};

} // namespace stepscope

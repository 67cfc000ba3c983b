#pragma once
// BackgroundReader runs one read of the session at a time on a worker thread, over its own
// read-only connection to the session file, for questions that take seconds on big sessions (range
// sums, search over every slice): the GUI thread never waits for them. Starting a new read cancels
// the one in progress (a flag plus interrupting its connection); the read's result is handed back as a closure
// run on the owner's thread, only if no newer read was started meanwhile. Sessions that are not a
// file cannot be shared: start() says so and the caller reads synchronously.

#include <QObject>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

struct sqlite3;

namespace stepscope {

class BackgroundReader : public QObject {
    Q_OBJECT
public:
    // Runs on the worker; returns what to do with the result on the owner's thread, or an empty
    // function when it stopped because `cancel` was raised.
    using Work = std::function<std::function<void()>(sqlite3 *db, const std::atomic<bool> &cancel)>;

    explicit BackgroundReader(QObject *parent = nullptr);
    ~BackgroundReader() override;

    // false (nothing started) when `file` is not a session file on disk.
    bool start(const std::filesystem::path &file, Work work);
    void cancel();
    bool busy() const { return m_busy; }

signals:
    void busyChanged(bool busy);

private:
    struct Job;
    void setBusy(bool busy);

    std::shared_ptr<Job> m_job;
    std::thread m_worker;
    uint64_t m_generation = 0;
    bool m_busy = false;
};

} // namespace stepscope

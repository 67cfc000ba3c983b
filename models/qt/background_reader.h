#pragma once
// BackgroundReader runs one read of the session at a time as a BackgroundJob, over its own
// read-only connection to the session file, for questions that take seconds on big sessions (range
// sums, search over every slice): the GUI thread never waits for them. Starting a new read cancels
// the one in progress (its token, which also interrupts its connection); the read's result is
// handed back as a closure run on the owner's thread, only if no newer read was started meanwhile.
// Sessions that are not a file cannot be shared: start() says so and the caller reads synchronously.

#include "models/qt/background_job.h"
#include "models/store/session_connection.h"

#include <QObject>

#include <atomic>
#include <filesystem>
#include <functional>

namespace stepscope {

class BackgroundReader : public QObject {
    Q_OBJECT
public:
    // Runs on the worker; returns what to do with the result on the owner's thread, or an empty
    // function when it stopped because `cancel` was raised.
    using Work = std::function<std::function<void()>(const SessionConnection &connection, const CancelToken &cancel)>;

    explicit BackgroundReader(QObject *parent = nullptr);

    // false (nothing started) when `file` is not a session file on disk.
    bool start(const std::filesystem::path &file, Work work);
    void cancel() { m_job.cancel(); }
    bool busy() const { return m_job.busy(); }

signals:
    void busyChanged(bool busy);

private:
    BackgroundJob m_job;
};

} // namespace stepscope

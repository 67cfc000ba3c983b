#pragma once
// BackgroundJob is the one way Stepscope runs work off the GUI thread (issue #19 item 1). start()
// runs a function on a WorkerThread with a CancelToken; the function returns what to do with its
// result, and that closure runs on the owner's thread through a queued call — only if the job is
// still the newest one and was not cancelled. A newer start() cancels and supersedes the running
// job (its late result is dropped by a generation number, never delivered); cancel() and the
// destructor raise the token without waiting on the GUI thread for the work to finish, except the
// destructor, which joins workers that are already told to stop: the work must poll the token in
// its loops (or register an interrupt for a blocking call), so that wait is the polling interval.
// Owned by each model that computes in the background (BackgroundReader, RangeOpStats,
// MetricSeriesModel, AnalysisModel).

#include "models/concurrency/cancel_token.h"
#include "models/concurrency/worker_thread.h"

#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace stepscope {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    // Runs on the worker; returns what to do with the result on the owner's thread (empty: nothing).
    using Deliver = std::function<void()>;
    using Work = std::function<Deliver(const CancelToken &cancel)>;

    explicit BackgroundJob(QObject *parent = nullptr);
    ~BackgroundJob() override;

    // Cancels the running job, if any, and starts `work`; returns the new job's generation.
    uint64_t start(Work work);
    // Cancels the running job: its result is dropped. Does not wait for it.
    void cancel();
    bool busy() const { return m_busy; }
    uint64_t generation() const { return m_generation; }

signals:
    void busyChanged(bool busy);

private:
    struct Worker {
        WorkerThread thread;
        CancelToken token;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void setBusy(bool busy);
    void reapFinished();

    std::vector<Worker> m_workers;  // the newest last; older ones are cancelled and joined once done
    uint64_t m_generation = 0;
    bool m_busy = false;
};

} // namespace stepscope

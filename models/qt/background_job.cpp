#include "models/qt/background_job.h"

#include <exception>

namespace stepscope {

BackgroundJob::BackgroundJob(QObject *parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob() {
    for (Worker &w : m_workers) w.token.cancel();
    // Every worker is told to stop; each leaves at its next poll of the token.
    for (Worker &w : m_workers) w.thread.join();
}

void BackgroundJob::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

void BackgroundJob::reapFinished() {
    std::erase_if(m_workers, [](Worker &w) {
        if (!w.done->load()) return false;
        w.thread.join();  // it has only its return left
        return true;
    });
}

void BackgroundJob::cancel() {
    ++m_generation;
    for (Worker &w : m_workers) w.token.cancel();
    reapFinished();
    setBusy(false);
}

uint64_t BackgroundJob::start(Work work) {
    cancel();
    const uint64_t generation = m_generation;
    Worker w{{}, CancelToken(), std::make_shared<std::atomic<bool>>(false)};
    w.thread = WorkerThread([this, generation, token = w.token, done = w.done, work = std::move(work)] {
        Deliver deliver;
        try {
            if (!token.cancelled()) deliver = work(token);
        } catch (const std::exception &) {
            deliver = {};  // work that cannot report its failure as a result (or was interrupted): nothing
        }
        token.setInterrupt({});
        done->store(true);
        // Posted to this object: dropped with it if it is destroyed before the event loop runs it.
        QMetaObject::invokeMethod(this, [this, generation, token, deliver = std::move(deliver)] {
            reapFinished();
            if (generation != m_generation || token.cancelled()) return;  // superseded or cancelled
            if (deliver) deliver();
            if (generation == m_generation) setBusy(false);  // unless `deliver` started the next one
        }, Qt::QueuedConnection);
    });
    m_workers.push_back(std::move(w));
    setBusy(true);
    return generation;
}

} // namespace stepscope

#include "models/qt/background_reader.h"

#include "models/store/session_store.h"

#include <chrono>
#include <mutex>

namespace stepscope {

// The worker publishes its connection so that cancel() can interrupt a long statement.
struct BackgroundReader::Job {
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    SessionConnection *conn = nullptr;  // while the work runs (interrupted by cancel)
};

BackgroundReader::BackgroundReader(QObject *parent) : QObject(parent) {}

BackgroundReader::~BackgroundReader() { cancel(); }

void BackgroundReader::setBusy(bool busy) {
    if (busy == m_busy) return;
    m_busy = busy;
    emit busyChanged(busy);
}

void BackgroundReader::cancel() {
    ++m_generation;
    if (m_job) {
        m_job->cancel = true;
        std::lock_guard lock(m_job->mutex);
        if (m_job->conn) m_job->conn->interrupt();
    }
    if (m_worker.joinable()) m_worker.join();
    m_job.reset();
    setBusy(false);
}

bool BackgroundReader::start(const std::filesystem::path &file, Work work) {
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(file, ec)) return false;
    cancel();
    const uint64_t generation = m_generation;
    auto job = std::make_shared<Job>();
    m_job = job;
    setBusy(true);
    m_worker = std::thread([this, job, generation, file, work = std::move(work)] {
        std::function<void()> deliver;
        SessionConnection conn;
        try {
            conn = SessionStore::openReadOnlyConnection(file);
        } catch (const StoreError &) {
            // Not readable now (or not a session Stepscope trusts): nothing to show.
        }
        if (sqlite3 *db = conn.db()) {
            conn.setBusyTimeout(std::chrono::milliseconds(2000));
            {
                std::lock_guard lock(job->mutex);
                job->conn = &conn;
            }
            try {
                deliver = work(db, job->cancel);
            } catch (const std::exception &) {
                deliver = {};  // interrupted, damaged or unreadable now (StoreError, bad_alloc): nothing to show
            }
            std::lock_guard lock(job->mutex);
            job->conn = nullptr;
        }
        conn = SessionConnection();
        const bool cancelled = job->cancel.load();
        QMetaObject::invokeMethod(this, [this, generation, cancelled, deliver = std::move(deliver)] {
            if (generation != m_generation) return;  // a newer read owns the result slot
            if (m_worker.joinable()) m_worker.join();
            m_job.reset();
            if (deliver && !cancelled) deliver();
            setBusy(false);
        }, Qt::QueuedConnection);
    });
    return true;
}

} // namespace stepscope

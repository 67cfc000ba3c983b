#include "models/concurrency/worker_thread.h"

#include <algorithm>

namespace stepscope {

WorkerThread::WorkerThread(std::function<void()> work) : m_error(std::make_unique<std::exception_ptr>()) {
    m_thread = std::thread([error = m_error.get(), work = std::move(work)] {
        try {
            work();
        } catch (...) {
            *error = std::current_exception();
        }
    });
}

WorkerThread::~WorkerThread() {
    if (m_thread.joinable()) m_thread.join();
}

WorkerThread &WorkerThread::operator=(WorkerThread &&other) noexcept {
    if (this != &other) {
        if (m_thread.joinable()) m_thread.join();
        m_thread = std::move(other.m_thread);
        m_error = std::move(other.m_error);
    }
    return *this;
}

void WorkerThread::join() {
    m_thread.join();
    if (m_error && *m_error) std::rethrow_exception(std::exchange(*m_error, nullptr));
}

int WorkerThread::hardwareThreads() { return std::max(1, int(std::thread::hardware_concurrency())); }

} // namespace stepscope

#pragma once
// WorkerThread is the one way Stepscope starts a thread: the import's file workers
// (FileImports), the byte prefetcher, the Chrome writer's row producer and BackgroundJob's jobs
// all run on one. It runs a function on a new thread; an exception the function lets out is kept
// and rethrown by join(), in the joining thread, instead of ending the process. The destructor
// joins too (dropping a kept exception): the owner stops the work first — raises its CancelToken,
// closes its queue — so that wait is short. tests/concurrency/tst_worker_thread checks that no
// other file starts a std::thread.

#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <utility>

namespace stepscope {

class WorkerThread {
public:
    WorkerThread() = default;
    explicit WorkerThread(std::function<void()> work);
    ~WorkerThread();
    WorkerThread(WorkerThread &&) noexcept = default;
    WorkerThread &operator=(WorkerThread &&other) noexcept;
    WorkerThread(const WorkerThread &) = delete;
    WorkerThread &operator=(const WorkerThread &) = delete;

    bool joinable() const { return m_thread.joinable(); }
    // Waits for the work to end; rethrows what it threw.
    void join();

    // The threads the machine runs at once (at least 1): the default number of import workers.
    static int hardwareThreads();

private:
    std::unique_ptr<std::exception_ptr> m_error;  // written by the thread: its address outlives moves
    std::thread m_thread;
};

} // namespace stepscope

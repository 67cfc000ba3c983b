#pragma once
// CancelToken is the one form of "stop this work" in Stepscope: importers, the analysis, the
// store's background readers and every GUI job take one. Copies share one flag; whoever started
// the work keeps a copy and calls cancel(), the work polls cancelled() in its loops. A blocking call
// registers an interrupt (e.g. sqlite3_interrupt) that cancel() runs. A default-constructed token is
// a fresh flag nobody else holds: work given none is never cancelled.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

namespace stepscope {

class CancelToken {
public:
    CancelToken() : m_state(std::make_shared<State>()) {}
    bool cancelled() const { return m_state->flag.load(std::memory_order_relaxed); }
    void cancel() const;
    // Runs `interrupt` on cancel() (at once if already cancelled); an empty function removes it.
    void setInterrupt(std::function<void()> interrupt) const;

private:
    struct State {
        std::atomic<bool> flag{false};
        std::mutex mutex;
        std::function<void()> interrupt;
    };
    std::shared_ptr<State> m_state;
};

} // namespace stepscope

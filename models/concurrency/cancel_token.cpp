#include "models/concurrency/cancel_token.h"

namespace stepscope {

void CancelToken::cancel() const {
    m_state->flag = true;
    std::lock_guard lock(m_state->mutex);
    if (m_state->interrupt) m_state->interrupt();
}

void CancelToken::setInterrupt(std::function<void()> interrupt) const {
    std::lock_guard lock(m_state->mutex);
    m_state->interrupt = std::move(interrupt);
    if (m_state->interrupt && cancelled()) m_state->interrupt();
}

} // namespace stepscope

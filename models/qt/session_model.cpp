#include "models/qt/session_model.h"

#include "models/store/session_extents.h"

#include <algorithm>
#include <utility>

namespace stepscope {

// The previous store closes after the views have let go of it: the store's readers they hold keep
// prepared statements on its connection until they are told of the change.
void SessionModel::setStore(std::unique_ptr<SessionStore> store, QString previewNote) {
    const std::unique_ptr<SessionStore> previous = std::exchange(m_store, std::move(store));
    m_previewNote = m_store ? std::move(previewNote) : QString();
    emit sessionChanged();
}

void SessionModel::close() {
    if (!m_store) return;
    const std::unique_ptr<SessionStore> previous = std::move(m_store);
    m_previewNote.clear();
    emit sessionChanged();
}

std::vector<RunExtent> SessionModel::runExtents() const {
    return m_store ? storedRunExtents(*m_store) : std::vector<RunExtent>{};
}

NsRange SessionModel::extent() const {
    if (!m_store) return {};
    NsRange out;
    bool any = false;
    auto add = [&](int64_t lo, int64_t hi) {
        out.start = any ? std::min(out.start, lo) : lo;
        out.end = any ? std::max(out.end, hi) : hi;
        any = true;
    };
    for (const RunExtent &r : runExtents()) add(r.range.start, r.range.end);
    if (const std::optional<NsRange> metrics = storedMetricExtent(*m_store)) add(metrics->start, metrics->end);
    return any ? out : NsRange{};
}

} // namespace stepscope

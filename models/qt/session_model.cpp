#include "models/qt/session_model.h"

#include <algorithm>

namespace stepscope {

void SessionModel::setStore(std::unique_ptr<SessionStore> store) {
    m_store = std::move(store);
    emit sessionChanged();
}

void SessionModel::close() {
    if (!m_store) return;
    m_store.reset();
    emit sessionChanged();
}

TimeRange SessionModel::extent() const {
    if (!m_store) return {};
    SessionReader reader(*m_store);
    TimeRange out;
    bool any = false;
    for (const RunRow &run : reader.runs()) {
        const TimeRange r = reader.runTimeRange(run.id);
        if (!r.valid()) continue;
        out.startNs = any ? std::min(out.startNs, r.startNs) : r.startNs;
        out.endNs = any ? std::max(out.endNs, r.endNs) : r.endNs;
        any = true;
    }
    SqliteStatement st(m_store->db(), "SELECT min(t_ns), max(t_ns) FROM v_metric");
    if (st.step() && !st.columnIsNull(0)) {
        const int64_t lo = st.columnInt(0), hi = st.columnInt(1);
        out.startNs = any ? std::min(out.startNs, lo) : lo;
        out.endNs = any ? std::max(out.endNs, hi) : hi;
        any = true;
    }
    return any ? out : TimeRange{};
}

} // namespace stepscope

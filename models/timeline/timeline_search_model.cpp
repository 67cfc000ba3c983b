#include "models/timeline/timeline_search_model.h"

#include "models/store/sqlite_statement.h"

#include <algorithm>

namespace stepscope {

TimelineSearchModel::TimelineSearchModel(TimelineModel *timeline, QObject *parent)
    : QObject(parent), m_timeline(timeline) {
    connect(timeline, &TimelineModel::modelReset, this, [this] { search(m_text); });
}

void TimelineSearchModel::search(const QString &text) {
    m_text = text;
    m_hits.clear();
    m_current = -1;
    SessionStore *store = m_timeline->store();
    if (store && !text.isEmpty()) {
        QString pattern = text;
        pattern.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
            .replace(QLatin1Char('%'), QLatin1String("\\%"))
            .replace(QLatin1Char('_'), QLatin1String("\\_"));
        pattern = QLatin1Char('%') + pattern + QLatin1Char('%');
        SqliteStatement st(store->db(),
            "SELECT s.id, s.track_id, s.start_ns, s.dur_ns, s.depth FROM slice s "
            "WHERE s.name_id IN (SELECT id FROM string WHERE text LIKE ?1 ESCAPE '\\')");
        st.bind(1, std::string_view(pattern.toStdString()));
        const auto &tracks = m_timeline->tracks();
        while (st.step()) {
            const int ti = m_timeline->trackIndex(st.columnInt(1));
            if (ti < 0) continue;
            m_hits.push_back({st.columnInt(0), tracks[size_t(ti)].baseNs + st.columnInt(2), st.columnInt(3), ti,
                              uint32_t(st.columnInt(4))});
        }
        std::sort(m_hits.begin(), m_hits.end(), [](const Hit &a, const Hit &b) {
            return a.startNs != b.startNs ? a.startNs < b.startNs : a.sliceId < b.sliceId; });
    }
    emit resultsChanged();
    emit currentChanged(m_current);
}

void TimelineSearchModel::setCurrent(int index) {
    if (m_hits.empty()) index = -1;
    if (index == m_current) return;
    m_current = index;
    emit currentChanged(m_current);
}

void TimelineSearchModel::next() {
    if (m_hits.empty()) return;
    setCurrent(m_current < 0 ? 0 : (m_current + 1) % int(m_hits.size()));
}

void TimelineSearchModel::previous() {
    if (m_hits.empty()) return;
    setCurrent(m_current <= 0 ? int(m_hits.size()) - 1 : m_current - 1);
}

void TimelineSearchModel::seek(int64_t t) {
    auto it = std::lower_bound(m_hits.begin(), m_hits.end(), t, [](const Hit &h, int64_t x) { return h.startNs < x; });
    setCurrent(it == m_hits.end() ? (m_hits.empty() ? -1 : 0) : int(it - m_hits.begin()));
}

} // namespace stepscope

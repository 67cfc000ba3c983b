#include "models/timeline/timeline_search_model.h"

#include "models/store/slice_lookup.h"

#include <algorithm>

namespace stepscope {

TimelineSearchModel::TimelineSearchModel(TimelineModel *timeline, QObject *parent)
    : QObject(parent), m_timeline(timeline) {
    connect(timeline, &TimelineModel::modelReset, this, [this] { requestSearch(m_text); });
    connect(timeline, &TimelineModel::runOffsetsChanged, this, [this] { requestSearch(m_text); });  // hits placed anew
    connect(&m_reader, &BackgroundReader::busyChanged, this, &TimelineSearchModel::busyChanged);
}

TimelineSearchModel::TrackPlaces TimelineSearchModel::trackPlaces() const {
    TrackPlaces out;
    const auto &tracks = m_timeline->tracks();
    for (size_t i = 0; i < tracks.size(); ++i)
        if (!tracks[i].isValueTrack()) out[tracks[i].id] = {int(i), tracks[i].baseNs};
    return out;
}

std::vector<TimelineSearchModel::Hit> TimelineSearchModel::find(const SessionConnection &connection, const QString &text,
                                                                const TrackPlaces &tracks, const CancelToken &cancel) {
    std::vector<Hit> hits;
    bool stopped = false;
    try {
        int64_t n = 0;
        SliceLookup(connection).forEachNamedLike(text.toStdString(), [&](const StoredSlice &s) {
            if ((n++ & 4095) == 0 && cancel.cancelled()) return !(stopped = true);
            const auto it = tracks.find(s.trackId);
            if (it != tracks.end())
                hits.push_back({s.id, it->second.baseNs + s.startNs, s.durNs, it->second.index, uint32_t(s.depth)});
            return true;
        });
    } catch (const StoreError &) {
        if (cancel.cancelled()) return {};  // interrupted
        throw;
    }
    if (stopped) return {};
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.sliceId < b.sliceId; });
    return hits;
}

void TimelineSearchModel::install(const QString &text, std::vector<Hit> hits) {
    m_text = text;
    m_hits = std::move(hits);
    m_longest = 0;
    for (const Hit &h : m_hits) m_longest = std::max(m_longest, h.durNs);
    m_current = -1;
    emit resultsChanged();
    emit currentChanged(m_current);
}

void TimelineSearchModel::search(const QString &text) {
    m_reader.cancel();
    SessionStore *store = m_timeline->store();
    install(text, store && !text.isEmpty() ? find(store->connection(), text, trackPlaces(), {}) : std::vector<Hit>{});
}

void TimelineSearchModel::requestSearch(const QString &text, std::function<void()> then) {
    SessionStore *store = m_timeline->store();
    const bool started = store && !text.isEmpty() &&
        m_reader.start(store->path(), [this, text, then, tracks = trackPlaces()](const SessionConnection &connection, const CancelToken &cancel) {
            std::vector<Hit> hits = find(connection, text, tracks, cancel);
            if (cancel.cancelled()) return std::function<void()>();
            return std::function<void()>([this, text, then, hits = std::move(hits)]() mutable {
                install(text, std::move(hits));
                if (then) then();
            });
        });
    if (started) {
        m_text = text;  // what is being looked for; the hits follow
        return;
    }
    search(text);
    if (then) then();
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

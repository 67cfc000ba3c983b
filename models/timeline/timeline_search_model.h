#pragma once
// TimelineSearchModel finds slices by name over the whole session (SQL LIKE over the interned names,
// then the slices using them), keeps the hits in time order and steps through them. The timeline's
// search box drives it through requestSearch() — on a worker thread, since a common name over 10 M
// slices takes seconds; TimelineView follows currentChanged() by centring and selecting the hit.

#include "models/concurrency/cancel_token.h"
#include "models/qt/background_reader.h"
#include "models/timeline/timeline_model.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <unordered_map>
#include <vector>

namespace stepscope {

class TimelineSearchModel : public QObject {
    Q_OBJECT
public:
    struct Hit {
        int64_t sliceId = 0;
        int64_t startNs = 0, durNs = 0;
        int track = -1;
        uint32_t depth = 0;
    };

    explicit TimelineSearchModel(TimelineModel *timeline, QObject *parent = nullptr);

    // Every slice whose name contains `text` (case-insensitive for ASCII). Empty text clears.
    void search(const QString &text);
    // The same in the background when the session is a file (a newer request cancels an older
    // one); `then` runs once the hits are in (at once when synchronous).
    void requestSearch(const QString &text, std::function<void()> then = {});
    bool busy() const { return m_reader.busy(); }
    QString text() const { return m_text; }
    int hitCount() const { return int(m_hits.size()); }
    int current() const { return m_current; }  // -1 when none
    const Hit *currentHit() const { return m_current >= 0 ? &m_hits[size_t(m_current)] : nullptr; }
    const std::vector<Hit> &hits() const { return m_hits; }
    // The longest hit's duration: hits reaching into a range start at most this long before it.
    int64_t longestHit() const { return m_longest; }

    void next();      // wraps around
    void previous();  // wraps around
    // Makes the first hit at or after `t` current.
    void seek(int64_t t);

signals:
    void busyChanged(bool busy);
    void resultsChanged();
    void currentChanged(int index);

private:
    struct TrackPlace {
        int index;
        int64_t baseNs;
    };
    using TrackPlaces = std::unordered_map<int64_t, TrackPlace>;
    // The hits for `text`, in time order; empty when `cancel` was raised (any thread).
    static std::vector<Hit> find(const SessionConnection &connection, const QString &text, const TrackPlaces &tracks, const CancelToken &cancel);
    TrackPlaces trackPlaces() const;
    void install(const QString &text, std::vector<Hit> hits);
    void setCurrent(int index);

    TimelineModel *m_timeline;
    BackgroundReader m_reader;
    QString m_text;
    std::vector<Hit> m_hits;
    int m_current = -1;
    int64_t m_longest = 0;
};

} // namespace stepscope

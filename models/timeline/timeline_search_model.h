#pragma once
// TimelineSearchModel finds slices by name over the whole session (SQL LIKE over the interned names,
// then the slices using them), keeps the hits in time order and steps through them. The timeline's
// search box drives it; TimelineView follows currentChanged() by centring and selecting the hit.

#include "models/timeline/timeline_model.h"

#include <QObject>
#include <QString>

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
    QString text() const { return m_text; }
    int hitCount() const { return int(m_hits.size()); }
    int current() const { return m_current; }  // -1 when none
    const Hit *currentHit() const { return m_current >= 0 ? &m_hits[size_t(m_current)] : nullptr; }
    const std::vector<Hit> &hits() const { return m_hits; }

    void next();      // wraps around
    void previous();  // wraps around
    // Makes the first hit at or after `t` current.
    void seek(int64_t t);

signals:
    void resultsChanged();
    void currentChanged(int index);

private:
    void setCurrent(int index);

    TimelineModel *m_timeline;
    QString m_text;
    std::vector<Hit> m_hits;
    int m_current = -1;
};

} // namespace stepscope

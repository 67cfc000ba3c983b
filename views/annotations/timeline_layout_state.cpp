#include "views/annotations/timeline_layout_state.h"

#include "views/timeline/timeline_view.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace stepscope {

namespace {
QString groupKey(const TimelineModel &m, int g) {
    const TimelineGroup &group = m.groups()[size_t(g)];
    return group.parent >= 0 ? m.groups()[size_t(group.parent)].title + "/" + group.title : group.title;
}
QString trackKey(const TimelineModel &m, int t) {
    const TimelineTrack &track = m.tracks()[size_t(t)];
    return groupKey(m, track.group) + "/" + track.name;
}
} // namespace

std::string TimelineLayoutState::capture(TimelineView &view) {
    const TimelineModel &m = *view.model();
    QJsonArray hidden, collapsed;
    for (int t = 0; t < int(m.tracks().size()); ++t)
        if (view.layout().isHidden(t)) hidden.append(trackKey(m, t));
    for (int g = 0; g < int(m.groups().size()); ++g)
        if (view.layout().isCollapsed(g)) collapsed.append(groupKey(m, g));
    if (hidden.isEmpty() && collapsed.isEmpty()) return {};
    return QJsonDocument(QJsonObject{{"hidden", hidden}, {"collapsed", collapsed}}).toJson(QJsonDocument::Compact).toStdString();
}

void TimelineLayoutState::apply(TimelineView &view, const std::string &layout) {
    const TimelineModel &m = *view.model();
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(layout)).object();
    QSet<QString> hidden, collapsed;
    for (const QJsonValue &v : o.value("hidden").toArray()) hidden.insert(v.toString());
    for (const QJsonValue &v : o.value("collapsed").toArray()) collapsed.insert(v.toString());
    for (int g = 0; g < int(m.groups().size()); ++g) {
        const bool want = collapsed.contains(groupKey(m, g));
        if (view.layout().isCollapsed(g) != want) view.setGroupCollapsed(g, want);
    }
    for (int t = 0; t < int(m.tracks().size()); ++t) {
        const bool want = hidden.contains(trackKey(m, t));
        if (view.layout().isHidden(t) != want) view.setTrackHidden(t, want);
    }
}

} // namespace stepscope

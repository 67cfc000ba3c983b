// TimelineLayout: saving and restoring the user's choices (collapsed groups, hidden tracks, track
// order) by name, so they outlive the indices of one load: "run/GPU 0/stream 7".
#include "views/timeline/timeline_layout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace stepscope {

namespace {
// Unique names for every group and track of the model; repeated names get "#2", "#3", ...
struct ChoiceKeys {
    std::vector<QString> group, track;

    explicit ChoiceKeys(const TimelineModel &model) {
        const auto &groups = model.groups();
        group.resize(groups.size());
        QHash<QString, int> seen;
        auto unique = [&seen](const QString &key) {
            const int n = ++seen[key];
            return n == 1 ? key : key + QStringLiteral("#%1").arg(n);
        };
        for (size_t g = 0; g < groups.size(); ++g) {
            const int parent = groups[g].parent;
            group[g] = unique(parent < 0 ? groups[g].title : group[size_t(parent)] + u'/' + groups[g].title);
        }
        track.resize(model.tracks().size());
        for (size_t t = 0; t < track.size(); ++t) {
            const TimelineTrack &tr = model.tracks()[t];
            track[t] = unique(group[size_t(tr.group)] + u'/' + tr.name);
        }
    }
    static int find(const std::vector<QString> &keys, const QString &key) {
        const auto it = std::find(keys.begin(), keys.end(), key);
        return it == keys.end() ? -1 : int(it - keys.begin());
    }
};
} // namespace

QByteArray TimelineLayout::saveChoices(const TimelineModel &model) const {
    const ChoiceKeys keys(model);
    QJsonArray collapsed, hidden;
    for (int g : m_collapsed)
        if (g >= 0 && g < int(keys.group.size())) collapsed.append(keys.group[size_t(g)]);
    for (int t : m_hidden)
        if (t >= 0 && t < int(keys.track.size())) hidden.append(keys.track[size_t(t)]);
    QJsonObject order;
    for (auto it = m_order.constBegin(); it != m_order.constEnd(); ++it) {
        if (it.key() < 0 || it.key() >= int(keys.group.size())) continue;
        QJsonArray list;
        for (int t : trackOrder(model, it.key())) list.append(keys.track[size_t(t)]);
        order.insert(keys.group[size_t(it.key())], list);
    }
    QJsonObject root;
    root.insert(QStringLiteral("collapsed"), collapsed);
    root.insert(QStringLiteral("hidden"), hidden);
    root.insert(QStringLiteral("order"), order);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

void TimelineLayout::restoreChoices(const TimelineModel &model, const QByteArray &json) {
    resetChoices();
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    if (root.isEmpty()) return;
    const ChoiceKeys keys(model);
    for (const QJsonValue &v : root.value(QStringLiteral("collapsed")).toArray())
        if (const int g = ChoiceKeys::find(keys.group, v.toString()); g >= 0) m_collapsed.insert(g);
    for (const QJsonValue &v : root.value(QStringLiteral("hidden")).toArray())
        if (const int t = ChoiceKeys::find(keys.track, v.toString()); t >= 0) m_hidden.insert(t);
    const QJsonObject order = root.value(QStringLiteral("order")).toObject();
    for (auto it = order.constBegin(); it != order.constEnd(); ++it) {
        const int g = ChoiceKeys::find(keys.group, it.key());
        if (g < 0) continue;
        const std::vector<int> &natural = model.groups()[size_t(g)].tracks;
        std::vector<int> list;
        for (const QJsonValue &v : it.value().toArray()) {
            const int t = ChoiceKeys::find(keys.track, v.toString());
            if (t >= 0 && std::find(natural.begin(), natural.end(), t) != natural.end() &&
                std::find(list.begin(), list.end(), t) == list.end())
                list.push_back(t);
        }
        for (int t : natural)  // tracks that are new since the order was saved go last
            if (std::find(list.begin(), list.end(), t) == list.end()) list.push_back(t);
        m_order.insert(g, std::move(list));
    }
}

} // namespace stepscope

#pragma once
// Reading `stepscope compare --format json` in the compare tests.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <string>

namespace stepscope::test {

inline QJsonObject parseJson(const std::string &text) { return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object(); }

inline QJsonObject categoryOf(const QJsonObject &c, const QString &name) {
    for (const QJsonValue &v : c["categories"].toArray())
        if (v.toObject()["category"].toString() == name) return v.toObject();
    return {};
}

inline QJsonObject opOf(const QJsonObject &c, const QString &name) {
    for (const QJsonValue &v : c["ops"].toArray())
        if (v.toObject()["name"].toString() == name) return v.toObject();
    return {};
}

// The rules of findings.resolved / new / kept.
inline QStringList rulesOf(const QJsonObject &c, const char *which) {
    QStringList out;
    for (const QJsonValue &v : c["findings"].toObject()[which].toArray()) out << v.toString();
    return out;
}

} // namespace stepscope::test

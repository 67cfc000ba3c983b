#pragma once
// SessionModel holds the session the window shows and tells views when it changes (opened,
// re-imported). Views read through it; only the import path writes to the session.

#include "models/store/session_reader.h"

#include <QObject>
#include <QString>

#include <memory>

namespace stepscope {

class SessionModel : public QObject {
    Q_OBJECT
public:
    explicit SessionModel(QObject *parent = nullptr) : QObject(parent) {}

    SessionStore *store() const { return m_store.get(); }
    QString path() const { return m_store ? QString::fromStdString(m_store->path().string()) : QString(); }
    bool isOpen() const { return m_store != nullptr; }

    // Takes ownership; emits sessionChanged().
    void setStore(std::unique_ptr<SessionStore> store);
    void close();
    // Tell views the contents changed (after an import committed into the open store).
    void notifyChanged() { emit sessionChanged(); }

    // The absolute time extent over all runs and metrics; invalid when empty.
    TimeRange extent() const;

signals:
    void sessionChanged();

private:
    std::unique_ptr<SessionStore> m_store;
};

} // namespace stepscope

#pragma once
// SessionModel holds the session the window shows and tells views when it changes (opened,
// re-imported). Views read through it; only the import path writes to the session.

#include "models/store/session_extents.h"
#include "models/store/session_reader.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace stepscope {

class SessionModel : public QObject {
    Q_OBJECT
public:
    explicit SessionModel(QObject *parent = nullptr) : QObject(parent) {}

    SessionStore *store() const { return m_store.get(); }
    QString path() const { return m_store ? QString::fromStdString(m_store->path().string()) : QString(); }
    bool isOpen() const { return m_store != nullptr; }

    // Takes ownership; emits sessionChanged(). A non-empty previewNote marks the store as a first
    // picture of an import still running (the first events of its traces only): views draw it, the
    // analysis waits for the whole import and says previewNote instead.
    void setStore(std::unique_ptr<SessionStore> store, QString previewNote = {});
    bool isPreview() const { return !m_previewNote.isEmpty(); }
    QString previewNote() const { return m_previewNote; }
    void close();
    // Tell views the contents changed (after an import committed into the open store).
    void notifyChanged() { emit sessionChanged(); }

    // The absolute time extent over all runs and metrics; invalid when empty.
    NsRange extent() const;
    // Each run's absolute time extent (its events; metrics not included), in the session's run order.
    using RunExtent = stepscope::RunExtent;
    std::vector<RunExtent> runExtents() const;

signals:
    void sessionChanged();

private:
    std::unique_ptr<SessionStore> m_store;
    QString m_previewNote;
};

} // namespace stepscope

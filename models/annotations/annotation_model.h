#pragma once
// AnnotationModel is the one list of annotations a window shows: the notes stored in the session
// (AnnotationStore) plus transient ones that are drawn but never written (`export --annotate`, the
// evidence screenshots of `report --screenshots`). Every view of a window gets the same instance with
// AnnotationModel::of(session) (a child of the SessionModel, like AnalysisModel) and repaints on
// changed(). Edits go through a QUndoStack, so adding, editing and deleting can be undone; they write
// straight through to the session file.

#include "models/store/annotation_store.h"
#include "models/qt/session_model.h"

#include <QObject>
#include <QString>

#include <vector>

class QUndoStack;

namespace stepscope {

class AnnotationModel : public QObject {
    Q_OBJECT
public:
    static AnnotationModel *of(SessionModel *session);

    // Stored and transient notes, by start time. Transient notes have negative ids.
    const std::vector<Annotation> &annotations() const { return m_all; }
    std::vector<Annotation> inRange(int64_t lo, int64_t hi) const;
    const Annotation *find(int64_t id) const;
    bool canWrite() const;
    QString lastError() const { return m_error; }

    // Undoable edits of stored notes. add() returns the new id (0 when the session cannot be written).
    int64_t add(const Annotation &a);
    void update(const Annotation &a);
    void remove(int64_t id);
    QUndoStack *undoStack() const { return m_undo; }

    // Notes for one picture; never written to the session.
    int64_t addTransient(Annotation a);
    void clearTransient();

    // Used by the undo commands: write without recording.
    int64_t insertNow(const Annotation &a);
    void updateNow(const Annotation &a);
    void removeNow(int64_t id);

signals:
    void changed();

private:
    explicit AnnotationModel(SessionModel *session);
    void reload();
    void rebuild();

    SessionModel *m_session;
    QUndoStack *m_undo;
    std::vector<Annotation> m_stored, m_transient, m_all;
    int64_t m_nextTransientId = -1;
    QString m_error;
};

} // namespace stepscope

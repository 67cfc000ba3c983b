#include "models/annotations/annotation_model.h"

#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace stepscope {

namespace {

// Re-inserting a deleted note keeps its id, so redo/undo chains stay valid.
class AddAnnotationCommand : public QUndoCommand {
public:
    AddAnnotationCommand(AnnotationModel *model, Annotation a)
        : QUndoCommand(QObject::tr("Add annotation")), m_model(model), m_a(std::move(a)) {}
    void redo() override { m_a.id = m_model->insertNow(m_a); }
    void undo() override { m_model->removeNow(m_a.id); }
    int64_t annotationId() const { return m_a.id; }

private:
    AnnotationModel *m_model;
    Annotation m_a;
};

class EditAnnotationCommand : public QUndoCommand {
public:
    EditAnnotationCommand(AnnotationModel *model, Annotation before, Annotation after)
        : QUndoCommand(QObject::tr("Edit annotation")), m_model(model), m_before(std::move(before)), m_after(std::move(after)) {}
    void redo() override { m_model->updateNow(m_after); }
    void undo() override { m_model->updateNow(m_before); }

private:
    AnnotationModel *m_model;
    Annotation m_before, m_after;
};

class RemoveAnnotationCommand : public QUndoCommand {
public:
    RemoveAnnotationCommand(AnnotationModel *model, Annotation a)
        : QUndoCommand(QObject::tr("Delete annotation")), m_model(model), m_a(std::move(a)) {}
    void redo() override { m_model->removeNow(m_a.id); }
    void undo() override { m_model->insertNow(m_a); }

private:
    AnnotationModel *m_model;
    Annotation m_a;
};

} // namespace

AnnotationModel *AnnotationModel::of(SessionModel *session) {
    if (auto *m = session->findChild<AnnotationModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new AnnotationModel(session);
}

AnnotationModel::AnnotationModel(SessionModel *session) : QObject(session), m_session(session), m_undo(new QUndoStack(this)) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        m_undo->clear();  // a different (or re-imported) session: old commands no longer apply
        reload();
    });
    reload();
}

bool AnnotationModel::canWrite() const {
    return m_session->store() && m_session->store()->mode() == SessionStore::Mode::ReadWrite;
}

void AnnotationModel::reload() {
    m_stored.clear();
    if (SessionStore *store = m_session->store()) {
        try {
            m_stored = AnnotationStore(*store).annotations();
        } catch (const std::exception &e) {
            m_error = QString::fromStdString(e.what());
        }
    }
    rebuild();
}

void AnnotationModel::rebuild() {
    m_all = m_stored;
    m_all.insert(m_all.end(), m_transient.begin(), m_transient.end());
    std::stable_sort(m_all.begin(), m_all.end(), [](const Annotation &a, const Annotation &b) { return a.startNs < b.startNs; });
    emit changed();
}

std::vector<Annotation> AnnotationModel::inRange(int64_t lo, int64_t hi) const {
    std::vector<Annotation> out;
    for (const Annotation &a : m_all)
        if (a.overlaps(lo, hi)) out.push_back(a);
    return out;
}

const Annotation *AnnotationModel::find(int64_t id) const {
    for (const Annotation &a : m_all)
        if (a.id == id) return &a;
    return nullptr;
}

int64_t AnnotationModel::add(const Annotation &a) {
    if (!canWrite()) return 0;
    auto *cmd = new AddAnnotationCommand(this, a);
    m_undo->push(cmd);  // runs redo(): inserts
    return cmd->annotationId();
}

void AnnotationModel::update(const Annotation &a) {
    const Annotation *old = find(a.id);
    if (!old || a.id <= 0 || !canWrite()) return;
    m_undo->push(new EditAnnotationCommand(this, *old, a));
}

void AnnotationModel::remove(int64_t id) {
    if (id < 0) {
        std::erase_if(m_transient, [id](const Annotation &a) { return a.id == id; });
        rebuild();
        return;
    }
    const Annotation *old = find(id);
    if (!old || !canWrite()) return;
    m_undo->push(new RemoveAnnotationCommand(this, *old));
}

int64_t AnnotationModel::insertNow(const Annotation &a) {
    if (!canWrite()) return 0;
    int64_t id = 0;
    try {
        Annotation stored = a;
        stored.transient = false;
        stored.endNs = std::max(stored.startNs, stored.endNs);
        id = AnnotationStore(*m_session->store()).insert(stored);
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    reload();
    return id;
}

void AnnotationModel::updateNow(const Annotation &a) {
    if (!canWrite()) return;
    try {
        AnnotationStore(*m_session->store()).update(a);
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    reload();
}

void AnnotationModel::removeNow(int64_t id) {
    if (!canWrite()) return;
    try {
        AnnotationStore(*m_session->store()).remove(id);
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    reload();
}

int64_t AnnotationModel::addTransient(Annotation a) {
    a.id = m_nextTransientId--;
    a.transient = true;
    a.endNs = std::max(a.startNs, a.endNs);
    m_transient.push_back(std::move(a));
    rebuild();
    return m_transient.back().id;
}

void AnnotationModel::clearTransient() {
    if (m_transient.empty()) return;
    m_transient.clear();
    rebuild();
}

} // namespace stepscope

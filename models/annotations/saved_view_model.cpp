#include "models/annotations/saved_view_model.h"

#include "models/analysis/engine/run_analysis.h"

#include <algorithm>

namespace stepscope {

SavedViewModel *SavedViewModel::of(SessionModel *session) {
    if (auto *m = session->findChild<SavedViewModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new SavedViewModel(session);
}

SavedViewModel::SavedViewModel(SessionModel *session) : QObject(session), m_session(session) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        m_current = -1;
        reload();
    });
    reload();
}

bool SavedViewModel::canWrite() const {
    return m_session->store() && m_session->store()->mode() == SessionStore::Mode::ReadWrite;
}

void SavedViewModel::reload() {
    m_views.clear();
    if (SessionStore *store = m_session->store()) {
        try {
            m_views = AnnotationStore(*store).savedViews();
        } catch (const std::exception &) {
        }
    }
    if (m_current >= int(m_views.size())) m_current = int(m_views.size()) - 1;
    emit changed();
}

int64_t SavedViewModel::add(const SavedView &v) {
    if (!canWrite() || v.endNs <= v.startNs) return 0;
    const int64_t id = AnnotationStore(*m_session->store()).insert(v);
    reload();
    return id;
}

void SavedViewModel::rename(int64_t id, const std::string &name) {
    if (!canWrite()) return;
    for (SavedView v : m_views)
        if (v.id == id) {
            v.name = name;
            AnnotationStore(*m_session->store()).update(v);
        }
    reload();
}

void SavedViewModel::remove(int64_t id) {
    if (!canWrite()) return;
    AnnotationStore(*m_session->store()).removeSavedView(id);
    reload();
}

const SavedView *SavedViewModel::select(int index) {
    if (index < 0 || index >= int(m_views.size())) return nullptr;
    if (index != m_current) {
        m_current = index;
        emit currentChanged(index);
    }
    return &m_views[size_t(index)];
}

const SavedView *SavedViewModel::next() {
    if (m_views.empty()) return nullptr;
    return select((m_current + 1) % int(m_views.size()));
}

const SavedView *SavedViewModel::previous() {
    if (m_views.empty()) return nullptr;
    const int n = int(m_views.size());
    return select(m_current <= 0 ? n - 1 : m_current - 1);
}

std::vector<SavedView> SavedViewModel::evidenceViews(const Finding &finding, const StepTimeline &steps) {
    std::vector<SavedView> out;
    for (int64_t step : finding.steps) {
        auto it = std::find_if(steps.steps.begin(), steps.steps.end(), [step](const AnalysisStep &s) { return s.step == step; });
        if (it == steps.steps.end() || it->dur() <= 0) continue;
        const int64_t margin = std::max<int64_t>(1, it->dur() / 10);
        out.push_back({0, finding.title + " — step " + std::to_string(step), it->start - margin, it->end + margin, {}});
    }
    if (out.empty() && finding.endNs > finding.startNs) {
        const int64_t margin = std::max<int64_t>(1, (finding.endNs - finding.startNs) / 20);
        out.push_back({0, finding.title, finding.startNs - margin, finding.endNs + margin, {}});
    }
    return out;
}

int SavedViewModel::addEvidence(const Finding &finding, const StepTimeline &steps, const std::string &layout) {
    if (!canWrite()) return 0;
    std::vector<SavedView> views = evidenceViews(finding, steps);
    const int first = int(m_views.size());
    try {
        AnnotationStore store(*m_session->store());
        for (SavedView &v : views) {
            v.layout = layout;
            store.insert(v);
        }
    } catch (const std::exception &) {
    }
    reload();
    if (!views.empty()) select(first);
    return int(views.size());
}

} // namespace stepscope

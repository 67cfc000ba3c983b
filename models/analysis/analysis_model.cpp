#include "models/analysis/analysis_model.h"

namespace stepscope {

AnalysisModel *AnalysisModel::of(SessionModel *session) {
    if (auto *m = session->findChild<AnalysisModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new AnalysisModel(session);
}

AnalysisModel::AnalysisModel(SessionModel *session) : QObject(session), m_session(session) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        m_cache.clear();
        emit changed();
    });
}

std::vector<RunRow> AnalysisModel::runs() const {
    return m_session->store() ? SessionReader(*m_session->store()).runs() : std::vector<RunRow>{};
}

std::optional<int64_t> AnalysisModel::batchSize() const {
    if (!m_session->store()) return std::nullopt;
    const QString v = QString::fromStdString(m_session->store()->setting("batch_size"));
    bool ok = false;
    const qint64 n = v.toLongLong(&ok);
    return ok && n > 0 ? std::optional<int64_t>(n) : std::nullopt;
}

const RunAnalysis *AnalysisModel::analysis(int64_t runId) {
    if (!m_session->store()) return nullptr;
    if (auto it = m_cache.find(runId); it != m_cache.end()) return it->second.get();
    try {
        if (!m_rules) m_rules = std::make_unique<CategoryRules>(CategoryRules::load());
        for (const RunRow &run : runs())
            if (run.id == runId) {
                AnalysisOptions o;
                o.batchSize = batchSize();
                o.batchSizeSource = "session";
                auto a = std::make_unique<RunAnalysis>(RunAnalyzer(*m_session->store(), *m_rules).analyze(run, o));
                return m_cache.emplace(runId, std::move(a)).first->second.get();
            }
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

} // namespace stepscope

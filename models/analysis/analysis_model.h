#pragma once
// AnalysisModel owns the GUI's analysis results: one RunAnalysis per run of the open session, computed
// on first request and dropped when the session changes. It is shared by every analysis view of a
// window — AnalysisModel::of(session) returns the one attached to that SessionModel (created on
// first use as its child) — so the step bars, op table and findings panel analyse once.

#include "models/analysis/category_rules.h"
#include "models/analysis/run_analysis.h"
#include "models/qt/session_model.h"

#include <QObject>

#include <map>
#include <memory>

namespace stepscope {

class AnalysisModel : public QObject {
    Q_OBJECT
public:
    static AnalysisModel *of(SessionModel *session);

    std::vector<RunRow> runs() const;
    // nullptr when the run does not exist or its analysis failed (error() says why).
    const RunAnalysis *analysis(int64_t runId);
    QString error() const { return m_error; }
    std::optional<int64_t> batchSize() const;

signals:
    void changed();  // results dropped: views re-read

private:
    explicit AnalysisModel(SessionModel *session);
    SessionModel *m_session;
    std::unique_ptr<CategoryRules> m_rules;
    std::map<int64_t, std::unique_ptr<RunAnalysis>> m_cache;
    QString m_error;
};

} // namespace stepscope

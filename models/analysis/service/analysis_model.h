#pragma once
// AnalysisModel is the window's face of the AnalysisService of the open session: the step bars, op
// table, findings panel, job view and an exported picture's caption read the analyses through it, so
// they analyse once. AnalysisModel::of(session) returns the one attached to that SessionModel
// (created on first use as its child); a new session gets a new service.
//
// The service reads a session's stored analyses back and stores what it computes when the session
// can be written within 100 ms. Views ask with analysisOrStart() and jobOrStart(), which never wait:
// small runs are analysed at once, big ones (more than kBackgroundEvents events, seconds of work at
// 10 M) as a BackgroundJob over its own read-only connection (AnalysisService::computeOn), so
// opening a big session never freezes the window; changed() is emitted when such a result arrives and
// the views read again. A new session (or the model's end) cancels the running analyses: their cancel
// flag stops the analysis' loops, and the late results are dropped. Callers that are synchronous by
// nature (a picture's export and its caption, tests) use analyseNow() and analyseSteps(), which answer
// now and may take seconds; never from a view's refresh.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/service/derived_results.h"
#include "models/analysis/engine/job_analysis.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/qt/background_job.h"
#include "models/qt/session_model.h"
#include "models/analysis/service/analysis_service.h"

#include <QObject>

#include <map>
#include <memory>

namespace stepscope {

class AnalysisModel : public QObject {
    Q_OBJECT
public:
    static constexpr int64_t kBackgroundEvents = 1'000'000;
    // Runs with more events than this are analysed in the background (tests lower it).
    void setBackgroundThreshold(int64_t events) { m_backgroundEvents = events; }

    static AnalysisModel *of(SessionModel *session);

    std::vector<RunRow> runs() const;
    // The result if it is ready; otherwise analyses now (small runs) or starts the background job
    // and returns nullptr (pending() is then true until changed()). nullptr also when the run does
    // not exist or its analysis failed (error() says why).
    const RunAnalysis *analysisOrStart(int64_t runId);
    bool pending(int64_t runId) const;
    // Synchronous: the result, analysing now whatever the run's size (a running background job for
    // it is cancelled). For exports, captions and tests — not for views.
    const RunAnalysis *analyseNow(int64_t runId);
    // Synchronous: run `run` analysed over steps first..last only, as `stepscope report --steps A-B`
    // analyses it (the session's batch size, else a detected one); nullptr when it cannot be.
    const RunAnalysis *analyseSteps(const RunRow &run, int64_t first, int64_t last);
    // Analyses now every run whose background job is running (exports before they draw).
    void finishPending();
    QString error() const { return m_error; }
    std::optional<int64_t> batchSize() const;
    // The job of the session's analysed ranks (AnalysisService::sessionJob); starts the ranks'
    // analyses and returns nullptr while one runs (pending() of a rank says so), or when it is no job.
    const SessionJob *jobOrStart();
    // The same, analysing the ranks now (an exported picture's caption).
    const SessionJob *jobNow();
    // In a job whose ranks are all analysed: what the job says about run `runId` (the straggler, or
    // the wait for it, with what fixing it is worth); nothing otherwise. Starts the ranks' analyses.
    JobRankNote jobNote(int64_t runId);
    // The service of the open session (nullptr without one, or when the category rules cannot be read).
    AnalysisService *service();

signals:
    void changed();  // results dropped, or a background analysis arrived: views re-read

private:
    explicit AnalysisModel(SessionModel *session);
    const RunRow *findRun(const std::vector<RunRow> &runs, int64_t runId) const;
    bool waitsForImport();  // the session is a first picture: sets error() to say so
    void startJob(const RunRow &run);
    const RunAnalysis *analyseHere(const RunRow &run);  // on this thread, now

    SessionModel *m_session;
    std::unique_ptr<AnalysisService> m_service;
    std::map<int64_t, std::unique_ptr<BackgroundJob>> m_jobs;  // per run id; idle once delivered or cancelled
    int64_t m_backgroundEvents = kBackgroundEvents;
    QString m_error;
};

} // namespace stepscope

#pragma once
// AnalysisModel owns the GUI's analysis results: one RunAnalysis per run of the open session, computed
// on first request and dropped when the session changes. It is shared by every analysis view of a
// window — AnalysisModel::of(session) returns the one attached to that SessionModel (created on
// first use as its child) — so the step bars, op table and findings panel analyse once.
//
// A session keeps its analyses (DerivedResults): a run whose stored analysis was computed from
// today's inputs is read back, not analysed; every new result is written to the session.
// Views ask with analysisOrStart(), which never waits: small runs are analysed at once, big ones
// (more than kBackgroundEvents events, seconds of work at 10 M) as a BackgroundJob over its own
// read-only connection, so opening a big session never freezes the window; changed() is emitted
// when such a result arrives and the views read again. A new session (or the model's end) cancels
// the running analyses: their cancel flag stops RunAnalyzer's loops, and the late results are
// dropped. Callers that are synchronous by nature (a picture's export and its caption, tests) use
// analyseNow(), which answers now and may take seconds; never from a view's refresh.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/service/derived_results.h"
#include "models/analysis/engine/job_analysis.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/qt/background_job.h"
#include "models/qt/session_model.h"

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
    // Analyses now every run whose background job is running (exports before they draw).
    void finishPending();
    QString error() const { return m_error; }
    std::optional<int64_t> batchSize() const;
    // In a job whose ranks are all analysed: what the job says about run `runId` (the straggler, or
    // the wait for it, with what fixing it is worth); nothing otherwise. Starts the ranks' analyses.
    JobRankNote jobNote(int64_t runId);

signals:
    void changed();  // results dropped, or a background analysis arrived: views re-read

private:
    explicit AnalysisModel(SessionModel *session);
    AnalysisOptions options() const;
    const RunRow *findRun(const std::vector<RunRow> &runs, int64_t runId) const;
    bool waitsForImport();  // the session is a first picture: sets error() to say so
    bool loadRules();  // false (error() says why) when the category rules cannot be read
    void startJob(const RunRow &run, const DerivedResultKey &key);
    // The session's stored analysis of `run` when it was computed from today's inputs (cached).
    const RunAnalysis *fromSession(const RunRow &run, const DerivedResultKey &key);
    const DerivedResultKeys &keys();  // of this session's runs (read once per session; needs m_rules)
    const RunAnalysis *analyseHere(const RunRow &run, const DerivedResultKey &key);  // on this thread, now
    // Caches `analysis` and writes it to the session (DerivedResults) when the session can be written.
    const RunAnalysis *keep(const RunRow &run, const DerivedResultKey &key, std::unique_ptr<RunAnalysis> analysis);

    SessionModel *m_session;
    std::unique_ptr<CategoryRules> m_rules;
    std::map<int64_t, std::unique_ptr<RunAnalysis>> m_cache;
    std::optional<DerivedResultKeys> m_keys;
    std::map<int64_t, std::unique_ptr<BackgroundJob>> m_jobs;  // per run id; idle once delivered or cancelled
    int64_t m_backgroundEvents = kBackgroundEvents;
    QString m_error;
};

} // namespace stepscope

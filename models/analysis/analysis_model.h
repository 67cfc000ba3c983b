#pragma once
// AnalysisModel owns the GUI's analysis results: one RunAnalysis per run of the open session, computed
// on first request and dropped when the session changes. It is shared by every analysis view of a
// window — AnalysisModel::of(session) returns the one attached to that SessionModel (created on
// first use as its child) — so the step bars, op table and findings panel analyse once.
//
// Views ask with analysisOrStart(): small runs are analysed at once, big ones (more than
// kBackgroundEvents events, seconds of work at 10 M) on a worker thread over its own read-only
// connection, so opening a big session never freezes the window; changed() is emitted when such a
// result arrives and the views read again. analysis() always answers now (waiting for a running
// worker when there is one): exports, captions, tests.

#include "models/analysis/category_rules.h"
#include "models/analysis/run_analysis.h"
#include "models/qt/session_model.h"

#include <QObject>

#include <map>
#include <memory>
#include <thread>

namespace stepscope {

class AnalysisModel : public QObject {
    Q_OBJECT
public:
    static constexpr int64_t kBackgroundEvents = 1'000'000;
    // Runs with more events than this are analysed in the background (tests lower it).
    void setBackgroundThreshold(int64_t events) { m_backgroundEvents = events; }

    static AnalysisModel *of(SessionModel *session);
    ~AnalysisModel() override;

    std::vector<RunRow> runs() const;
    // nullptr when the run does not exist or its analysis failed (error() says why).
    const RunAnalysis *analysis(int64_t runId);
    // The result if it is ready; otherwise analyses now (small runs) or starts the worker and
    // returns nullptr (pending() is then true until changed()).
    const RunAnalysis *analysisOrStart(int64_t runId);
    bool pending(int64_t runId) const { return m_jobs.count(runId) > 0; }
    // Waits for every running analysis and installs the results (exports before they draw).
    void finishPending();
    QString error() const { return m_error; }
    std::optional<int64_t> batchSize() const;

signals:
    void changed();  // results dropped, or a background analysis arrived: views re-read

private:
    struct Job;
    explicit AnalysisModel(SessionModel *session);
    AnalysisOptions options() const;
    const RunRow *findRun(const std::vector<RunRow> &runs, int64_t runId) const;
    bool waitsForImport();  // the session is a first picture: sets error() to say so
    bool install(int64_t runId);  // joins the run's job and keeps its result; true when there was one
    void dropJobs();
    void reapRetired();

    SessionModel *m_session;
    std::unique_ptr<CategoryRules> m_rules;
    std::map<int64_t, std::unique_ptr<RunAnalysis>> m_cache;
    std::map<int64_t, std::unique_ptr<Job>> m_jobs;
    std::vector<std::unique_ptr<Job>> m_retired;  // jobs of a previous session, joined when done
    uint64_t m_generation = 0;
    int64_t m_backgroundEvents = kBackgroundEvents;
    QString m_error;
};

} // namespace stepscope

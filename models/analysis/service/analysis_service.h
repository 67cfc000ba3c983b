#pragma once
// AnalysisService answers "what is the analysis of this run, of this job" for one session, and is the
// only caller of RunAnalyzer and JobAnalyzer (tst_analysis_service checks this by scanning the sources).
// It builds the analysis options in one place (the session's own: its saved batch size, every step;
// or a request's: `report --steps A-B --batch-size N --preset P`, an exported picture's steps), keeps
// one result per (run, options) — read back from the session's derived results when they were
// computed from the same inputs (DerivedResults), else computed once — and stores the session's
// own analyses in the session when it was made to. The job analysis of the session's ranks is computed
// here once and reused until a rank's analysis changes.
//
// Callers: AnalysisModel (the window's views, the job view, an exported picture's caption — it runs
// big analyses in the background with computeOn() and hands them back with adopt()), ReportBuilder
// (`stepscope report`, `compare`) and finishImport() (`stepscope import`, the window's import worker,
// a CLI command's own import): the work after an import, started from that one place.
// Not thread-safe: one thread uses a service; background jobs use computeOn() over their own connection.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/service/derived_results.h"
#include "models/analysis/engine/job_analysis.h"
#include "models/analysis/engine/metric_data.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/store/session_reader.h"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

// What a caller asks beyond the session's own analysis (ReportOptions, an exported picture's steps).
struct AnalysisRequest {
    std::optional<int64_t> firstStep, lastStep;  // inclusive
    std::optional<int64_t> batchSize;
    // "cli" or "session"; empty: "session" when batchSize equals the session's saved batch size, else
    // "cli". Without batchSize the session's saved value applies, else one detected from input shapes.
    std::string batchSizeSource;
    std::string preset;  // extra breakdown preset (tensorflow, pytorch); empty: none
};

// The job of a session's ranks as the views show it: JobRankRow::runIndex indexes ranks and analyses.
struct SessionJob {
    JobAnalysis job;
    std::vector<RunRow> ranks;
    std::vector<const RunAnalysis *> analyses;  // owned by the service
};

class AnalysisService {
public:
    // Whether the service writes the session's own analyses (session options) to the session.
    enum class Storing {
        Never,     // reads stored analyses only (the report: it never writes the session it reads)
        WhenFree,  // when the session can be written within 100 ms, else not (the window: never freezes)
        Always,    // throws StoreError when it cannot (an import: the session must hold them)
    };

    // `rules`: the category rules every analysis of this service uses (CategoryRules::load()).
    AnalysisService(const SessionStore &store, CategoryRules rules);
    AnalysisService(SessionStore &store, CategoryRules rules, Storing storing);

    const SessionStore &store() const { return m_store; }
    const CategoryRules &rules() const { return m_rules; }
    const MetricCatalog &metrics();  // the session's metric series, read once

    // The options of a session's own analysis, the one the window shows and stores: the session's
    // saved batch size (or one detected), every step, no extra preset.
    static AnalysisOptions sessionOptions(const SessionStore &store);
    // A request's options: its steps and preset, its batch size or else the session's.
    static AnalysisOptions optionsFor(const SessionStore &store, const AnalysisRequest &request);

    // The analysis of `run` with `options` when it is at hand (computed before, or stored in the
    // session from the same inputs); nullptr otherwise — never computes. Throws when the session
    // cannot be read.
    const RunAnalysis *ready(const RunRow &run, const AnalysisOptions &options);
    // ready(), or computed now on this thread (seconds for a big run). A raised `cancel` throws
    // AnalysisCancelled and keeps nothing. Other failures throw; nothing is kept for them either.
    const RunAnalysis &analyse(const RunRow &run, const AnalysisOptions &options, const CancelToken &cancel = {});
    // analyse(), handed over: for a caller that changes its result and needs no other (the report
    // adds the job's findings to its runs'); the service keeps none.
    RunAnalysis take(const RunRow &run, const AnalysisOptions &options);
    // For a background job: the analysis computed over `store` (its own connection), touching no
    // service. Its result is handed to the service's adopt() on the service's thread.
    static RunAnalysis computeOn(const SessionStore &store, const CategoryRules &rules, const RunRow &run,
                                 const AnalysisOptions &options, const CancelToken &cancel);
    // Keeps `analysis` of `run` with `options` (stored like one computed here) and returns it.
    const RunAnalysis &adopt(const RunRow &run, const AnalysisOptions &options, RunAnalysis analysis);
    // How many analyses this service computed or adopted (not read back): tests count them.
    int computations() const { return m_computations; }

    // The job of the session's ranks (`runs`: the session's runs) whose session analyses are ready(),
    // read only (no findings added); nullptr when fewer than two are. Computed once; computed again
    // only when a rank's analysis changed or another set of ranks is ready. Callers that must not show
    // a part of the job wait until no rank is being analysed (AnalysisModel::jobOrStart).
    const SessionJob *sessionJob(const std::vector<RunRow> &runs);
    int jobComputations() const { return m_jobComputations; }
    // What the job says about run `runId` (the straggler, or the wait for it); empty when nothing.
    static JobRankNote jobNote(const SessionJob &job, int64_t runId);
    // The report's job: the members' analyses are the report's own copies, and the straggler and the
    // ranks waiting for it get a finding naming it (JobAnalyzer's addFindings).
    std::optional<JobAnalysis> reportJob(const std::vector<JobMember> &members);

    // Every run whose session analysis is neither at hand nor stored is analysed and kept (stored when
    // the service stores). Returns how many were analysed; a run whose analysis fails is left
    // without one, "run NAME: why" added to `failures` (when given), and the others go on. Throws only
    // when the session itself cannot be read or written.
    int analyseStale(std::vector<std::string> *failures = nullptr);

    // What follows an import, started from here only: the timeline's level-of-detail cache, and with
    // `analyse` every run's stored analysis (analyseStale(), storing Always). Returns the runs analysed.
    static int finishImport(SessionStore &store, bool analyse, std::vector<std::string> *failures = nullptr);

private:
    struct Entry {
        const RunAnalysis *analysis = nullptr;
        DerivedResultKey key;
    };
    Entry lookup(const RunRow &run, const AnalysisOptions &options);
    const DerivedResultKeys &keysFor(const AnalysisOptions &options);
    const RunAnalysis &keep(const RunRow &run, const AnalysisOptions &options, const DerivedResultKey &key, RunAnalysis analysis);
    bool isSessionOptions(const AnalysisOptions &options) const;

    const SessionStore &m_store;
    SessionStore *m_writable = nullptr;  // set when storing
    Storing m_storing = Storing::Never;
    CategoryRules m_rules;
    std::optional<MetricCatalog> m_metrics;
    std::string m_sessionOptionsText;  // optionsText(sessionOptions()) at construction
    std::map<std::string, DerivedResultKeys> m_keys;                      // by optionsText
    // By run and options: a service lives for one state of its session (a changed session, a new
    // service), so the inputs' key is computed once per result, when it is first asked for.
    using ResultId = std::pair<int64_t, std::string>;
    std::map<ResultId, std::unique_ptr<RunAnalysis>> m_results;
    std::optional<SessionJob> m_job;
    bool m_jobKnown = false;        // m_job is what sessionJob() computed (none: no job)
    std::vector<int64_t> m_jobRuns;  // the ranks it was computed from
    int m_computations = 0, m_jobComputations = 0;
};

} // namespace stepscope

#include "models/analysis/service/analysis_service.h"

#include "models/timeline/timeline_lod_writer.h"

#include <charconv>
#include <sstream>

namespace stepscope {
namespace {

// The options as one line: equal options, equal text (the service's cache and keys go by it).
std::string analysisOptionsText(const AnalysisOptions &o) {
    auto text = [](const std::optional<int64_t> &v) { return v ? std::to_string(*v) : std::string("-"); };
    std::ostringstream out;
    out << text(o.firstStep) << '\t' << text(o.lastStep) << '\t' << text(o.batchSize) << '\t' << o.batchSizeSource << '\t'
        << o.detectBatchSize << '\t' << o.preset;
    return out.str();
}

std::optional<int64_t> savedBatchSize(const SessionStore &store) {
    const std::string v = store.setting("batch_size");
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && n > 0) return n;
    return std::nullopt;
}

} // namespace

AnalysisService::AnalysisService(const SessionStore &store, CategoryRules rules)
    : m_store(store), m_rules(std::move(rules)), m_sessionOptionsText(analysisOptionsText(sessionOptions(store))) {}

AnalysisService::AnalysisService(SessionStore &store, CategoryRules rules, Storing storing)
    : AnalysisService(static_cast<const SessionStore &>(store), std::move(rules)) {
    m_storing = storing;
    if (storing != Storing::Never) m_writable = &store;
}

const MetricCatalog &AnalysisService::metrics() {
    if (!m_metrics) m_metrics = MetricCatalog::load(m_store);
    return *m_metrics;
}

AnalysisOptions AnalysisService::sessionOptions(const SessionStore &store) {
    AnalysisOptions o;
    o.batchSizeSource = "session";
    o.batchSize = savedBatchSize(store);
    return o;
}

AnalysisOptions AnalysisService::optionsFor(const SessionStore &store, const AnalysisRequest &request) {
    AnalysisOptions o;
    o.firstStep = request.firstStep;
    o.lastStep = request.lastStep;
    o.preset = request.preset;
    const std::optional<int64_t> saved = savedBatchSize(store);
    if (!request.batchSize) {
        o.batchSize = saved;
        o.batchSizeSource = "session";
    } else {
        o.batchSize = request.batchSize;
        o.batchSizeSource = !request.batchSizeSource.empty() ? request.batchSizeSource
                          : saved == request.batchSize       ? "session"
                                                             : "cli";
    }
    return o;
}

bool AnalysisService::isSessionOptions(const AnalysisOptions &options) const {
    return analysisOptionsText(options) == m_sessionOptionsText;
}

const DerivedResultKeys &AnalysisService::keysFor(const AnalysisOptions &options) {
    const std::string text = analysisOptionsText(options);
    auto it = m_keys.find(text);
    if (it == m_keys.end()) it = m_keys.emplace(text, DerivedResultKeys(m_store, options, m_rules)).first;
    return it->second;
}

AnalysisService::Entry AnalysisService::lookup(const RunRow &run, const AnalysisOptions &options) {
    Entry e;
    const ResultId id{run.id, analysisOptionsText(options)};
    if (const auto it = m_results.find(id); it != m_results.end()) {
        e.analysis = it->second.get();
        return e;
    }
    e.key = keysFor(options).of(m_store, run);
    // The session's stored analysis of the same inputs: a re-open, or a report on an imported session.
    if (std::optional<RunAnalysis> stored = DerivedResults::load(m_store, run.id, e.key))
        e.analysis = m_results.emplace(id, std::make_unique<RunAnalysis>(std::move(*stored))).first->second.get();
    return e;
}

const RunAnalysis *AnalysisService::ready(const RunRow &run, const AnalysisOptions &options) {
    return lookup(run, options).analysis;
}

RunAnalysis AnalysisService::computeOn(const SessionStore &store, const CategoryRules &rules, const RunRow &run,
                                       const AnalysisOptions &options, const CancelToken &cancel) {
    return RunAnalyzer(store, rules).analyze(run, options, cancel);
}

const RunAnalysis &AnalysisService::analyse(const RunRow &run, const AnalysisOptions &options, const CancelToken &cancel) {
    Entry e = lookup(run, options);
    if (e.analysis) return *e.analysis;
    return keep(run, options, e.key, RunAnalyzer(m_store, m_rules, &metrics()).analyze(run, options, cancel));
}

RunAnalysis AnalysisService::take(const RunRow &run, const AnalysisOptions &options) {
    analyse(run, options);
    const auto it = m_results.find(ResultId{run.id, analysisOptionsText(options)});
    RunAnalysis taken = std::move(*it->second);
    m_results.erase(it);
    if (run.rank) m_jobKnown = false;
    return taken;
}

const RunAnalysis &AnalysisService::adopt(const RunRow &run, const AnalysisOptions &options, RunAnalysis analysis) {
    const Entry e = lookup(run, options);
    if (e.analysis) return *e.analysis;  // answered meanwhile: the one already handed out stays
    return keep(run, options, e.key, std::move(analysis));
}

const RunAnalysis &AnalysisService::keep(const RunRow &run, const AnalysisOptions &options, const DerivedResultKey &key,
                                         RunAnalysis analysis) {
    ++m_computations;
    // Only the session's own analysis is stored: the session holds one analysis per run.
    if (m_writable && isSessionOptions(options)) {
        if (m_storing == Storing::Always) DerivedResults::save(*m_writable, run, key, analysis);
        else DerivedResults::trySave(*m_writable, run, key, analysis);  // a busy or read-only session analyses again next time
    }
    if (run.rank) m_jobKnown = false;  // a rank's analysis changed: the job is computed again
    auto &slot = m_results[ResultId{run.id, analysisOptionsText(options)}];
    slot = std::make_unique<RunAnalysis>(std::move(analysis));
    return *slot;
}

const SessionJob *AnalysisService::sessionJob(const std::vector<RunRow> &runs) {
    SessionJob job;
    std::vector<int64_t> included;
    const AnalysisOptions options = sessionOptions(m_store);
    for (const RunRow &run : runs) {
        if (!run.rank) continue;
        const RunAnalysis *a = ready(run, options);
        if (!a) continue;  // not analysed (it failed, or is still running): the job of the others
        job.ranks.push_back(run);
        job.analyses.push_back(a);
        included.push_back(run.id);
    }
    if (m_jobKnown && included == m_jobRuns) return m_job ? &*m_job : nullptr;
    m_jobKnown = true;
    m_jobRuns = included;
    m_job.reset();
    if (job.ranks.size() < 2) return nullptr;
    std::vector<JobMember> members;
    for (size_t i = 0; i < job.ranks.size(); ++i)  // only read: no findings are added (those are the report's)
        members.push_back({&job.ranks[i], const_cast<RunAnalysis *>(job.analyses[i])});
    ++m_jobComputations;
    std::optional<JobAnalysis> analysed = JobAnalyzer::analyze(members, SessionReader(m_store).sources(), false);
    if (!analysed) return nullptr;
    job.job = std::move(*analysed);
    m_job = std::move(job);
    return &*m_job;
}

JobRankNote AnalysisService::jobNote(const SessionJob &job, int64_t runId) {
    for (const JobRankRow &row : job.job.ranksTable)
        if (job.ranks[row.runIndex].id == runId) return JobAnalyzer::noteFor(job.job, row, *job.analyses[row.runIndex]);
    return {};
}

std::optional<JobAnalysis> AnalysisService::reportJob(const std::vector<JobMember> &members) {
    return JobAnalyzer::analyze(members, SessionReader(m_store).sources(), true);
}

int AnalysisService::analyseStale(std::vector<std::string> *failures) {
    const AnalysisOptions options = sessionOptions(m_store);
    int analysed = 0;
    for (const RunRow &run : SessionReader(m_store).runs()) {
        const Entry e = lookup(run, options);
        if (e.analysis) continue;
        std::optional<RunAnalysis> analysis;
        try {
            analysis = RunAnalyzer(m_store, m_rules, &metrics()).analyze(run, options);
        } catch (const StoreError &) {
            throw;
        } catch (const std::exception &ex) {
            if (failures) failures->push_back("run " + run.name + ": " + ex.what());
            continue;
        }
        keep(run, options, e.key, std::move(*analysis));
        ++analysed;
    }
    return analysed;
}

int AnalysisService::finishImport(SessionStore &store, bool analyse, std::vector<std::string> *failures) {
    // The timeline's level-of-detail cache, so that the window opens the session at once.
    TimelineLodWriter(store).ensure();
    if (!analyse) return 0;
    return AnalysisService(store, CategoryRules::load(), Storing::Always).analyseStale(failures);
}

} // namespace stepscope

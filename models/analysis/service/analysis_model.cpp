#include "models/analysis/service/analysis_model.h"

namespace stepscope {

AnalysisModel *AnalysisModel::of(SessionModel *session) {
    if (auto *m = session->findChild<AnalysisModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new AnalysisModel(session);
}

AnalysisModel::AnalysisModel(SessionModel *session) : QObject(session), m_session(session) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        for (auto &[id, job] : m_jobs) job->cancel();  // their session is gone; they stop at their next poll
        m_cache.clear();
        m_keys.reset();  // offsets, batch size or sources may be what changed
        m_error.clear();  // the previous session's reason (a failure, or a first picture's note)
        emit changed();
    });
}

std::vector<RunRow> AnalysisModel::runs() const {
    return m_session->store() ? SessionReader(*m_session->store()).runs() : std::vector<RunRow>{};
}

std::optional<int64_t> AnalysisModel::batchSize() const {
    return m_session->store() ? DerivedResults::sessionOptions(*m_session->store()).batchSize : std::nullopt;
}

AnalysisOptions AnalysisModel::options() const { return DerivedResults::sessionOptions(*m_session->store()); }

const RunRow *AnalysisModel::findRun(const std::vector<RunRow> &runs, int64_t runId) const {
    for (const RunRow &r : runs)
        if (r.id == runId) return &r;
    return nullptr;
}

bool AnalysisModel::pending(int64_t runId) const {
    const auto it = m_jobs.find(runId);
    return it != m_jobs.end() && it->second->busy();
}

// A first picture of a running import holds only the first events of its traces: analysing it
// would give verdicts about a part as if it were the run. The views say why they wait instead.
bool AnalysisModel::waitsForImport() {
    if (!m_session->isPreview()) return false;
    m_error = m_session->previewNote();
    return true;
}

bool AnalysisModel::loadRules() {
    try {
        if (!m_rules) m_rules = std::make_unique<CategoryRules>(CategoryRules::load());
        return true;
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
        return false;
    }
}

const RunAnalysis *AnalysisModel::analyseNow(int64_t runId) {
    if (!m_session->store() || waitsForImport()) return nullptr;
    if (auto it = m_cache.find(runId); it != m_cache.end()) return it->second.get();
    if (auto it = m_jobs.find(runId); it != m_jobs.end()) it->second->cancel();  // answered here instead
    if (!loadRules()) return nullptr;
    try {
        const std::vector<RunRow> all = runs();
        if (const RunRow *run = findRun(all, runId)) {
            const DerivedResultKey key = keys().of(*m_session->store(), *run);
            if (const RunAnalysis *stored = fromSession(*run, key)) return stored;
            return analyseHere(*run, key);
        }
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

const RunAnalysis *AnalysisModel::analyseHere(const RunRow &run, const DerivedResultKey &key) {
    try {
        return keep(run, key, std::make_unique<RunAnalysis>(RunAnalyzer(*m_session->store(), *m_rules).analyze(run, options())));
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

const DerivedResultKeys &AnalysisModel::keys() {
    if (!m_keys) m_keys.emplace(*m_session->store(), options(), *m_rules);
    return *m_keys;
}

const RunAnalysis *AnalysisModel::fromSession(const RunRow &run, const DerivedResultKey &key) {
    std::optional<RunAnalysis> stored = DerivedResults::load(*m_session->store(), run.id, key);
    if (!stored) return nullptr;
    return m_cache.emplace(run.id, std::make_unique<RunAnalysis>(std::move(*stored))).first->second.get();
}

const RunAnalysis *AnalysisModel::keep(const RunRow &run, const DerivedResultKey &key, std::unique_ptr<RunAnalysis> analysis) {
    DerivedResults::trySave(*m_session->store(), run, key, *analysis);  // a read-only session analyses again next time
    return m_cache.insert_or_assign(run.id, std::move(analysis)).first->second.get();
}

const RunAnalysis *AnalysisModel::analysisOrStart(int64_t runId) {
    SessionStore *store = m_session->store();
    if (!store || waitsForImport()) return nullptr;
    if (auto it = m_cache.find(runId); it != m_cache.end()) return it->second.get();
    if (pending(runId)) return nullptr;
    const std::vector<RunRow> all = runs();
    const RunRow *run = findRun(all, runId);
    if (!run || !loadRules()) return nullptr;
    DerivedResultKey key;
    try {
        key = keys().of(*store, *run);
        if (const RunAnalysis *stored = fromSession(*run, key)) return stored;  // a re-open: no analysis at all
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
        return nullptr;
    }
    int64_t events = 0;
    for (const SourceRow &s : SessionReader(*store).sources())
        if (s.id == run->sourceId) events = s.events;
    std::error_code ec;
    if (events <= m_backgroundEvents || !std::filesystem::is_regular_file(store->path(), ec)) return analyseHere(*run, key);
    startJob(*run, key);
    return nullptr;
}

void AnalysisModel::startJob(const RunRow &run, const DerivedResultKey &key) {
    std::unique_ptr<BackgroundJob> &job = m_jobs[run.id];
    if (!job) job = std::make_unique<BackgroundJob>();
    job->start([this, path = m_session->store()->path(), run, key, rules = *m_rules, o = options()](const CancelToken &cancel) {
        auto result = std::make_shared<std::unique_ptr<RunAnalysis>>();
        std::string error;
        try {
            SessionStore readOnly(path, SessionStore::Mode::ReadOnly);
            cancel.setInterrupt([&readOnly] { readOnly.interrupt(); });
            try {
                *result = std::make_unique<RunAnalysis>(RunAnalyzer(readOnly, rules).analyze(run, o, cancel.flag()));
            } catch (const std::exception &e) {
                error = e.what();  // a cancelled analysis' error is dropped with it
            }
            cancel.setInterrupt({});  // before the connection closes
        } catch (const std::exception &e) {
            error = e.what();
        }
        return BackgroundJob::Deliver([this, run, key, result, error] {
            if (*result)
                keep(run, key, std::move(*result));
            else
                m_error = QString::fromStdString(error);
            emit changed();
        });
    });
}

void AnalysisModel::finishPending() {
    std::vector<int64_t> running;
    for (const auto &[id, job] : m_jobs)
        if (job->busy()) running.push_back(id);
    for (const int64_t id : running) analyseNow(id);
    if (!running.empty()) emit changed();
}

JobRankNote AnalysisModel::jobNote(int64_t runId) {
    if (!m_session->store()) return {};
    std::vector<RunRow> ranks;
    std::vector<RunAnalysis *> analyses;
    bool ranked = false;
    for (const RunRow &run : runs()) {
        if (!run.rank) continue;
        ranked = ranked || run.id == runId;
        const RunAnalysis *a = analysisOrStart(run.id);
        if (!a) return {};  // a rank still being analysed: the job is not known yet
        ranks.push_back(run);
        analyses.push_back(const_cast<RunAnalysis *>(a));  // only read: no findings are added
    }
    if (!ranked || ranks.size() < 2) return {};
    std::vector<JobMember> members;
    for (size_t i = 0; i < ranks.size(); ++i) members.push_back({&ranks[i], analyses[i]});
    const auto job = JobAnalyzer::analyze(members, SessionReader(*m_session->store()).sources(), false);
    if (!job) return {};
    for (const JobRankRow &row : job->ranksTable)
        if (ranks[row.runIndex].id == runId) return JobAnalyzer::noteFor(*job, row, *analyses[row.runIndex]);
    return {};
}

} // namespace stepscope

#include "models/analysis/analysis_model.h"

#include <atomic>

namespace stepscope {

// One background analysis: its own read-only connection, its result read only after join().
struct AnalysisModel::Job {
    std::thread thread;
    std::unique_ptr<RunAnalysis> result;
    std::string error;
    std::atomic<bool> done{false};
};

AnalysisModel *AnalysisModel::of(SessionModel *session) {
    if (auto *m = session->findChild<AnalysisModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new AnalysisModel(session);
}

AnalysisModel::AnalysisModel(SessionModel *session) : QObject(session), m_session(session) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        dropJobs();
        m_cache.clear();
        m_error.clear();  // the previous session's reason (a failure, or a first picture's note)
        emit changed();
    });
}

AnalysisModel::~AnalysisModel() {
    for (auto &[id, job] : m_jobs) job->thread.join();
    for (auto &job : m_retired) job->thread.join();
}

void AnalysisModel::dropJobs() {
    ++m_generation;
    // Their sessions are gone from the views; they finish in the background and are joined later.
    for (auto &[id, job] : m_jobs) m_retired.push_back(std::move(job));
    m_jobs.clear();
    reapRetired();
}

void AnalysisModel::reapRetired() {
    std::erase_if(m_retired, [](std::unique_ptr<Job> &job) {
        if (!job->done) return false;
        job->thread.join();
        return true;
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

AnalysisOptions AnalysisModel::options() const {
    AnalysisOptions o;
    o.batchSize = batchSize();
    o.batchSizeSource = "session";
    return o;
}

const RunRow *AnalysisModel::findRun(const std::vector<RunRow> &runs, int64_t runId) const {
    for (const RunRow &r : runs)
        if (r.id == runId) return &r;
    return nullptr;
}

bool AnalysisModel::install(int64_t runId) {
    auto it = m_jobs.find(runId);
    if (it == m_jobs.end()) return false;
    std::unique_ptr<Job> job = std::move(it->second);
    m_jobs.erase(it);
    job->thread.join();
    if (job->result) m_cache[runId] = std::move(job->result);
    else m_error = QString::fromStdString(job->error);
    return true;
}

// A first picture of a running import holds only the first events of its traces: analysing it
// would give verdicts about a part as if it were the run. The views say why they wait instead.
bool AnalysisModel::waitsForImport() {
    if (!m_session->isPreview()) return false;
    m_error = m_session->previewNote();
    return true;
}

const RunAnalysis *AnalysisModel::analysis(int64_t runId) {
    if (!m_session->store() || waitsForImport()) return nullptr;
    if (auto it = m_cache.find(runId); it != m_cache.end()) return it->second.get();
    if (install(runId)) {
        auto it = m_cache.find(runId);
        return it == m_cache.end() ? nullptr : it->second.get();
    }
    try {
        if (!m_rules) m_rules = std::make_unique<CategoryRules>(CategoryRules::load());
        const std::vector<RunRow> all = runs();
        if (const RunRow *run = findRun(all, runId)) {
            auto a = std::make_unique<RunAnalysis>(RunAnalyzer(*m_session->store(), *m_rules).analyze(*run, options()));
            return m_cache.emplace(runId, std::move(a)).first->second.get();
        }
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

const RunAnalysis *AnalysisModel::analysisOrStart(int64_t runId) {
    SessionStore *store = m_session->store();
    if (!store || waitsForImport()) return nullptr;
    if (auto it = m_cache.find(runId); it != m_cache.end()) return it->second.get();
    if (pending(runId)) return nullptr;
    const std::vector<RunRow> all = runs();
    const RunRow *run = findRun(all, runId);
    if (!run) return nullptr;
    int64_t events = 0;
    for (const SourceRow &s : SessionReader(*store).sources())
        if (s.id == run->sourceId) events = s.events;
    std::error_code ec;
    if (events <= m_backgroundEvents || !std::filesystem::is_regular_file(store->path(), ec)) return analysis(runId);
    try {
        if (!m_rules) m_rules = std::make_unique<CategoryRules>(CategoryRules::load());
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
        return nullptr;
    }
    auto job = std::make_unique<Job>();
    Job *raw = job.get();
    const uint64_t generation = m_generation;
    raw->thread = std::thread([this, raw, generation, path = store->path(), run = *run, rules = *m_rules, o = options()] {
        try {
            const SessionStore readOnly(path, SessionStore::Mode::ReadOnly);
            raw->result = std::make_unique<RunAnalysis>(RunAnalyzer(readOnly, rules).analyze(run, o));
        } catch (const std::exception &e) {
            raw->error = e.what();
        }
        raw->done = true;
        QMetaObject::invokeMethod(this, [this, generation, id = run.id] {
            if (generation != m_generation) return reapRetired();  // an old session's: just join it
            if (install(id)) emit changed();
        }, Qt::QueuedConnection);
    });
    m_jobs.emplace(runId, std::move(job));
    return nullptr;
}

void AnalysisModel::finishPending() {
    bool any = false;
    while (!m_jobs.empty()) any |= install(m_jobs.begin()->first);
    if (any) emit changed();
}

} // namespace stepscope

#include "models/analysis/service/analysis_model.h"

namespace stepscope {

AnalysisModel *AnalysisModel::of(SessionModel *session) {
    if (auto *m = session->findChild<AnalysisModel *>(QString(), Qt::FindDirectChildrenOnly)) return m;
    return new AnalysisModel(session);
}

AnalysisModel::AnalysisModel(SessionModel *session) : QObject(session), m_session(session) {
    connect(session, &SessionModel::sessionChanged, this, [this] {
        for (auto &[id, job] : m_jobs) job->cancel();  // their session is gone; they stop at their next poll
        m_service.reset();  // offsets, batch size or sources may be what changed
        m_error.clear();    // the previous session's reason (a failure, or a first picture's note)
        emit changed();
    });
}

AnalysisService *AnalysisModel::service() {
    SessionStore *store = m_session->store();
    if (!store) return nullptr;
    if (!m_service) {
        try {
            m_service = std::make_unique<AnalysisService>(*store, CategoryRules::load(), AnalysisService::Storing::WhenFree);
        } catch (const std::exception &e) {
            m_error = QString::fromStdString(e.what());  // the category rules cannot be read
        }
    }
    return m_service.get();
}

std::vector<RunRow> AnalysisModel::runs() const {
    return m_session->store() ? SessionReader(*m_session->store()).runs() : std::vector<RunRow>{};
}

std::optional<int64_t> AnalysisModel::batchSize() const {
    return m_session->store() ? AnalysisService::sessionOptions(*m_session->store()).batchSize : std::nullopt;
}

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

const RunAnalysis *AnalysisModel::analyseNow(int64_t runId) {
    if (!m_session->store() || waitsForImport()) return nullptr;
    AnalysisService *s = service();
    if (!s) return nullptr;
    if (auto it = m_jobs.find(runId); it != m_jobs.end()) it->second->cancel();  // answered here instead
    try {
        const std::vector<RunRow> all = runs();
        if (const RunRow *run = findRun(all, runId)) return analyseHere(*run);
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

const RunAnalysis *AnalysisModel::analyseSteps(const RunRow &run, int64_t first, int64_t last) {
    if (!m_session->store() || waitsForImport()) return nullptr;
    AnalysisService *s = service();
    if (!s) return nullptr;
    try {
        return &s->analyse(run, AnalysisService::optionsFor(*m_session->store(), {first, last, std::nullopt, "", ""}));
    } catch (const std::exception &) {
        return nullptr;  // the caption then says what it can without the range's figures
    }
}

const RunAnalysis *AnalysisModel::analyseHere(const RunRow &run) {
    try {
        return &m_service->analyse(run, AnalysisService::sessionOptions(*m_session->store()));
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
    }
    return nullptr;
}

const RunAnalysis *AnalysisModel::analysisOrStart(int64_t runId) {
    SessionStore *store = m_session->store();
    if (!store || waitsForImport()) return nullptr;
    AnalysisService *s = service();
    if (!s) return nullptr;
    const std::vector<RunRow> all = runs();
    const RunRow *run = findRun(all, runId);
    if (!run) return nullptr;
    try {
        // Before pending(): a background result is adopted while its job still counts as busy, and
        // the views read it then. A re-open finds the stored analysis here: no analysis at all.
        if (const RunAnalysis *ready = s->ready(*run, AnalysisService::sessionOptions(*store))) return ready;
    } catch (const std::exception &e) {
        m_error = QString::fromStdString(e.what());
        return nullptr;
    }
    if (pending(runId)) return nullptr;
    int64_t events = 0;
    for (const SourceRow &src : SessionReader(*store).sources())
        if (src.id == run->sourceId) events = src.events;
    std::error_code ec;
    if (events <= m_backgroundEvents || !std::filesystem::is_regular_file(store->path(), ec)) return analyseHere(*run);
    startJob(*run);
    return nullptr;
}

void AnalysisModel::startJob(const RunRow &run) {
    std::unique_ptr<BackgroundJob> &job = m_jobs[run.id];
    if (!job) job = std::make_unique<BackgroundJob>();
    const AnalysisOptions options = AnalysisService::sessionOptions(*m_session->store());
    job->start([this, path = m_session->store()->path(), run, rules = m_service->rules(), options](const CancelToken &cancel) {
        auto result = std::make_shared<std::optional<RunAnalysis>>();
        std::string error;
        try {
            SessionStore readOnly(path, SessionStore::Mode::ReadOnly);
            cancel.setInterrupt([&readOnly] { readOnly.interrupt(); });
            try {
                *result = AnalysisService::computeOn(readOnly, rules, run, options, cancel);
            } catch (const std::exception &e) {
                error = e.what();  // a cancelled analysis' error is dropped with it
            }
            cancel.setInterrupt({});  // before the connection closes
        } catch (const std::exception &e) {
            error = e.what();
        }
        // Delivered only while this job is current: a new session has cancelled it (and its service is gone).
        return BackgroundJob::Deliver([this, run, options, result, error] {
            try {
                if (*result && m_service) m_service->adopt(run, options, std::move(**result));
                else if (!*result) m_error = QString::fromStdString(error);
            } catch (const std::exception &e) {
                m_error = QString::fromStdString(e.what());  // the session cannot be read any more
            }
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

const SessionJob *AnalysisModel::jobOrStart() {
    AnalysisService *s = service();
    if (!s || waitsForImport()) return nullptr;
    const std::vector<RunRow> all = runs();
    bool running = false;
    for (const RunRow &run : all)
        if (run.rank && !analysisOrStart(run.id)) running = running || pending(run.id);  // starts every rank's
    return running ? nullptr : s->sessionJob(all);
}

const SessionJob *AnalysisModel::jobNow() {
    AnalysisService *s = service();
    if (!s || waitsForImport()) return nullptr;
    const std::vector<RunRow> all = runs();
    for (const RunRow &run : all)
        if (run.rank) analyseNow(run.id);  // one that fails is left out of the job, as in the window
    return s->sessionJob(all);
}

JobRankNote AnalysisModel::jobNote(int64_t runId) {
    const SessionJob *job = jobOrStart();
    return job ? AnalysisService::jobNote(*job, runId) : JobRankNote{};
}

} // namespace stepscope

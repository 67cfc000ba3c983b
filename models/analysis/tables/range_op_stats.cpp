#include "models/analysis/tables/range_op_stats.h"

#include "models/analysis/rules/category_rules.h"

#include <map>

namespace stepscope {

RangeOpStats::RangeOpStats(QObject *parent) : QObject(parent) {}

std::shared_ptr<const AnalysedEvents> RangeOpStats::loadEvents(const std::filesystem::path &session, const RunRow &run,
                                                               const CancelToken &cancel) {
    const SessionStore store(session, SessionStore::Mode::ReadOnly);
    auto events = std::make_shared<AnalysedEvents>();
    events->runId = run.id;
    events->trace = TraceLoader(store, cancel).load(run);
    const CategoryRules rules = CategoryRules::load();
    events->types = events->trace.classify(*rules.preset("stepscope"));
    return events;
}

std::vector<OpStat> RangeOpStats::compute(const AnalysedEvents &events, const std::vector<OpStat> &wholeRun, NsRange range) {
    std::vector<OpStat> ops = OpStatsAnalyzer::analyze(events.trace, events.types, range.start, range.end);
    std::map<std::pair<int32_t, int>, const KernelDetails *> details;
    for (const OpStat &o : wholeRun)
        if (!o.host() && !o.kernel.empty()) details[{o.nameId, o.device}] = &o.kernel;
    for (OpStat &o : ops)
        if (auto it = details.find({o.nameId, o.device}); it != details.end()) o.kernel = *it->second;
    return ops;
}

void RangeOpStats::request(const std::filesystem::path &session, const RunRow &run, std::vector<OpStat> wholeRun, NsRange range) {
    if (session.empty() || !range.valid()) return clear();
    std::shared_ptr<const AnalysedEvents> kept = m_events && m_events->runId == run.id ? m_events : nullptr;
    m_pending = Request{session, run, std::move(wholeRun), range, std::move(kept)};
    if (!busy()) startNext();
}

void RangeOpStats::clear() {
    m_pending.reset();
    m_job.cancel();
    m_running = false;
    m_range = {};
    m_result.clear();
}

void RangeOpStats::forgetEvents() {
    clear();
    m_events.reset();
}

void RangeOpStats::startNext() {
    if (!m_pending) return;
    Request r = std::move(*m_pending);
    m_pending.reset();
    m_running = true;
    if (!r.events && m_events && m_events->runId == r.run.id) r.events = m_events;  // read since it was queued
    m_job.start([this, r = std::move(r)](const CancelToken &cancel) -> BackgroundJob::Deliver {
        std::shared_ptr<const AnalysedEvents> events = r.events;
        std::vector<OpStat> ops;
        QString error;
        try {
            if (!events) events = loadEvents(r.session, r.run, cancel);
            ops = compute(*events, r.wholeRun, r.range);
        } catch (const std::exception &e) {
            error = QString::fromStdString(e.what());
            events.reset();
        }
        return [this, range = r.range, ops = std::move(ops), events, error]() mutable {
            if (events) m_events = events;
            m_running = false;  // the job's own flag stays up until this returns
            m_range = range;
            m_result = std::move(ops);
            m_error = error;
            emit ready();
            startNext();
        };
    });
}

} // namespace stepscope

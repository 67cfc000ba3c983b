#include "models/analysis/range_op_stats.h"

#include <map>

namespace stepscope {

RangeOpStats::RangeOpStats(QObject *parent) : QObject(parent) {}

RangeOpStats::~RangeOpStats() {
    if (m_worker.joinable()) m_worker.join();
}

std::vector<OpStat> RangeOpStats::compute(const AnalysedEvents &events, const std::vector<OpStat> &wholeRun, NsRange range) {
    std::vector<OpStat> ops = OpStatsAnalyzer::analyze(*events.trace, events.types, range.start, range.end);
    std::map<std::pair<int32_t, int>, const KernelDetails *> details;
    for (const OpStat &o : wholeRun)
        if (!o.host() && !o.kernel.empty()) details[{o.nameId, o.device}] = &o.kernel;
    for (OpStat &o : ops)
        if (auto it = details.find({o.nameId, o.device}); it != details.end()) o.kernel = *it->second;
    return ops;
}

void RangeOpStats::request(std::shared_ptr<const AnalysedEvents> events, std::vector<OpStat> wholeRun, NsRange range) {
    if (!events || !events->trace || !range.valid()) return clear();
    m_pending = Request{std::move(events), std::move(wholeRun), range};
    if (!busy()) startNext();
}

void RangeOpStats::clear() {
    m_pending.reset();
    ++m_generation;
    m_range = {};
    m_result.clear();
}

void RangeOpStats::startNext() {
    if (!m_pending) return;
    Request r = std::move(*m_pending);
    m_pending.reset();
    const uint64_t generation = m_generation;
    m_worker = std::thread([this, r = std::move(r), generation] {
        std::vector<OpStat> ops = compute(*r.events, r.wholeRun, r.range);
        QMetaObject::invokeMethod(this, [this, generation, range = r.range, ops = std::move(ops)]() mutable {
            m_worker.join();
            if (generation == m_generation) {
                m_range = range;
                m_result = std::move(ops);
                emit ready();
            }
            startNext();
        }, Qt::QueuedConnection);
    });
}

} // namespace stepscope

#pragma once
// RangeOpStats answers "which ops ran in this part of the run?" for the op table when it follows the
// visible range: OpStatsAnalyzer over the run's kept events (RunAnalysis::events), on a worker thread
// so zooming and panning never wait for it. Requests made while one is running are coalesced: only
// the newest range is computed next. Kernel launch details are taken from the whole-run statistics.

#include "models/analysis/run_analysis.h"
#include "models/qt/time_range_controller.h"

#include <QObject>

#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace stepscope {

class RangeOpStats : public QObject {
    Q_OBJECT
public:
    explicit RangeOpStats(QObject *parent = nullptr);
    ~RangeOpStats() override;

    // Ops of the events starting in `range`; result() changes and ready() follows when done.
    void request(std::shared_ptr<const AnalysedEvents> events, std::vector<OpStat> wholeRun, NsRange range);
    void clear();  // forget pending work; a running computation's result is dropped
    bool busy() const { return m_worker.joinable(); }
    NsRange range() const { return m_range; }
    const std::vector<OpStat> &result() const { return m_result; }

    // The computation itself (any thread).
    static std::vector<OpStat> compute(const AnalysedEvents &events, const std::vector<OpStat> &wholeRun, NsRange range);

signals:
    void ready();

private:
    struct Request {
        std::shared_ptr<const AnalysedEvents> events;
        std::vector<OpStat> wholeRun;
        NsRange range;
    };
    void startNext();

    std::optional<Request> m_pending;
    std::thread m_worker;
    uint64_t m_generation = 0;
    NsRange m_range;
    std::vector<OpStat> m_result;
};

} // namespace stepscope

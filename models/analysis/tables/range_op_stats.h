#pragma once
// RangeOpStats answers "which ops ran in this part of the run?" for the op table when it follows the
// visible range: OpStatsAnalyzer over the run's events, as a BackgroundJob so zooming and panning
// never wait for it. The first request reads the run's events over its own read-only connection and
// keeps them while the feature is on (forgetEvents() drops them: off, or the session changed), so
// nothing is held for users who never ask. Requests made while one runs are coalesced: only the
// newest range is computed next; clear() and the destructor cancel the running one. Kernel launch
// details come from the whole-run statistics.

#include "models/analysis/engine/op_stats_analyzer.h"
#include "models/qt/background_job.h"
#include "models/qt/time_range_controller.h"

#include <QObject>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace stepscope {

// A run's events and their stepscope-preset types. Immutable: shared with the worker thread.
struct AnalysedEvents {
    int64_t runId = 0;
    TraceData trace;
    std::vector<int8_t> types;
};

class RangeOpStats : public QObject {
    Q_OBJECT
public:
    explicit RangeOpStats(QObject *parent = nullptr);

    // Ops of `run`'s events starting in `range`, read from the session file `session`; result()
    // changes and ready() follows when done.
    void request(const std::filesystem::path &session, const RunRow &run, std::vector<OpStat> wholeRun, NsRange range);
    void clear();         // forget pending work and the result; a running computation is cancelled
    void forgetEvents();  // drop the kept events (memory): the next request reads them again
    bool busy() const { return m_running; }  // a computation runs (false again when ready() is emitted)
    bool holdsEvents() const { return bool(m_events); }
    NsRange range() const { return m_range; }
    const std::vector<OpStat> &result() const { return m_result; }
    QString error() const { return m_error; }

    // The pieces, for any thread; `cancel` (optional) stops the read with AnalysisCancelled.
    static std::shared_ptr<const AnalysedEvents> loadEvents(const std::filesystem::path &session, const RunRow &run,
                                                            const CancelToken &cancel = {});
    static std::vector<OpStat> compute(const AnalysedEvents &events, const std::vector<OpStat> &wholeRun, NsRange range);

signals:
    void ready();

private:
    struct Request {
        std::filesystem::path session;
        RunRow run;
        std::vector<OpStat> wholeRun;
        NsRange range;
        std::shared_ptr<const AnalysedEvents> events;  // kept ones, when they are this run's
    };
    void startNext();

    std::optional<Request> m_pending;
    BackgroundJob m_job;
    bool m_running = false;
    std::shared_ptr<const AnalysedEvents> m_events;
    NsRange m_range;
    std::vector<OpStat> m_result;
    QString m_error;
};

} // namespace stepscope

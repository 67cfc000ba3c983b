#pragma once
// SampleReader reads the sampled values of a session: the samples of an instance-metric series
// (metric_sample) and of a trace counter track (counter_sample), by time through their indexes, as
// stored (times relative to nothing: the caller adds the source's clock offset or the run's base).
// Statements are prepared on first use and kept for the reader's life. Called by
// MetricSeriesLoader, MetricSeriesModel and TimelineModel (counter tracks).

#include "models/store/session_connection.h"
#include "models/store/session_store.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace stepscope {

class SampleReader {
public:
    explicit SampleReader(const SessionConnection &connection);
    explicit SampleReader(const SessionStore &store) : SampleReader(store.connection()) {}
    ~SampleReader();
    SampleReader(const SampleReader &) = delete;
    SampleReader &operator=(const SampleReader &) = delete;

    // The samples of one metric series, by time; `visit` returns false to stop.
    void forEachMetricSample(int64_t seriesId, const std::function<bool(int64_t tNs, double value)> &visit);
    // The samples of one counter track, by time.
    void forEachCounterSample(int64_t trackId, const std::function<void(int64_t tNs, double value)> &visit);
    // At least as many as the metric samples stored (the largest rowid: one index probe, no count).
    int64_t metricSampleBound();

private:
    struct Statements;
    const SessionConnection &m_conn;
    std::unique_ptr<Statements> m_st;
};

} // namespace stepscope

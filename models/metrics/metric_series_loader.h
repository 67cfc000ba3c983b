#pragma once
// MetricSeriesLoader reads every metric series of a session into MetricSeries (compact arrays plus
// their LOD pyramid), shifted by each source's clock offset, and adds the derived CPU summaries
// (busiest core; mean of cores when the source gives no whole-machine value). Called by
// MetricSeriesModel on session open/change.

#include "models/concurrency/cancel_token.h"
#include "models/metrics/metric_series.h"
#include "models/store/session_store.h"

#include <atomic>
#include <vector>

namespace stepscope {

class MetricSeriesLoader {
public:
    // `cancel` (optional, a background job's flag) is polled while reading; raised, load() stops and
    // returns nothing.
    static std::vector<MetricSeries> load(const SessionStore &store, const CancelToken &cancel = {});
    // Appends "busiest core" (and "mean of cores") series for every run with per-core cpu_util.
    static void addCpuSummaries(std::vector<MetricSeries> &series);
};

} // namespace stepscope

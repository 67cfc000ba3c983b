#pragma once
// MetricSeries: one instance-metric series as the utilization view sees it — what it is (canonical
// name, unit, device, run, sampling period) and its samples with their level-of-detail summary, on
// the absolute time axis (the source's clock offset applied). Derived series (CPU busiest core,
// mean of cores) carry a negative id. Owned by MetricSeriesModel.

#include "models/metrics/metric_lod.h"

#include <optional>
#include <string>

namespace stepscope {

struct MetricSeriesInfo {
    int64_t id = 0;        // metric_series.id; < 0 for series derived here
    int64_t sourceId = 0;
    std::string run, name, unit;
    std::optional<int64_t> device;  // GPU index, or CPU core index for per-core cpu_util
    int64_t periodNs = 0;           // median sample spacing; 0 for a single sample or a series of changes (allocator totals)
    std::string label;              // display name of derived series ("busiest core")
};

struct MetricSeries {
    MetricSeriesInfo info;
    MetricLod lod;
};

} // namespace stepscope

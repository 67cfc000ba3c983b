#pragma once
// writeNsysGpuMetrics turns an export's GPU metrics sampling (`--gpu-metrics-devices`: GPU_METRICS rows
// named by TARGET_INFO_GPU_METRICS, the GPU in typeId & 0xFF) into metric series of the run: "SMs
// Active" (older releases: "SM Active") is gpu_util; every other metric keeps its own name, made
// lower_snake ("DRAM Read Bandwidth [Throughput %]" → dram_read_bandwidth, unit %). Times become
// Unix-epoch ns with the capture's start. Returns the samples written; -1 when cancelled.

#include "importers/common/import_context.h"
#include "importers/nsys/nsys_export.h"

#include <optional>
#include <string>

namespace stepscope {

int64_t writeNsysGpuMetrics(NsysExport &ex, ImportContext &ctx, const std::string &runName,
                            std::optional<int64_t> epochNs);

// "DRAM Read Bandwidth [Throughput %]" → {"dram_read_bandwidth", "%"}; SM active → gpu_util.
std::pair<std::string, std::string> nsysMetricSeriesName(const std::string &metricName);

} // namespace stepscope

#pragma once
// MemoryHeadroom answers "does a bigger batch fit": from the run's GPU memory series — the PyTorch
// allocator's totals (gpu_mem_allocated / gpu_mem_reserved, from profile_memory=True traces) or, when
// that is all there is, nvidia-smi's memory.used (gpu_mem_used) — and the device's size
// (gpu_mem_total / memory.total) it measures, over the analysed steps:
//   static   = the least allocated at a step boundary: what stays across steps (parameters,
//              optimizer state, gradients kept between steps) and does not grow with the batch;
//   peak     = the most allocated inside a step; per step = peak − static grows with the batch;
//   margin   = 5 % of the device kept free (CUDA context, library workspaces), the allocator's
//              fragmentation (reserved / allocated at the peak − 1) on top of what is allocated, and
//              with nvidia-smi beside the allocator what the device holds outside it (used − reserved);
//   max batch = batch × (usable − static) / per-step,
//              usable = (total − outside) × 0.95 / (1 + fragmentation).
// Each figure is absent, with a note saying why, when its evidence is missing (no memory series, no
// device size, no batch size, memory that does not move within a step). The device reported is the
// tightest one (highest peak share of its total). Called by RunAnalyzer after the findings are made;
// it also adds the memory_headroom finding and quotes the headroom in the batch-size findings.

#include "models/analysis/engine/metric_data.h"
#include "models/analysis/engine/run_analysis.h"

namespace stepscope {

class MemoryHeadroom {
public:
    static constexpr double kReservePct = 5.0;  // of the device total, never counted as usable

    static std::optional<MemorySummary> measure(const RunAnalysis &ra, const MetricData &metrics);
    // measure() into ra.memory, plus the findings that depend on it.
    static void evaluate(RunAnalysis &ra, const MetricData &metrics);
    // "batch 4 takes 72 MiB per step above the 1.20 GiB static (peak 1.27 GiB of 79.1 GiB, GPU 0);
    // up to ~120 fit (…)" — or why it cannot be said.
    static std::string describe(const MemorySummary &m);
};

// "1.25 GiB", "312 MiB", "800 KiB", "12 B".
std::string formatBytes(double bytes);

} // namespace stepscope

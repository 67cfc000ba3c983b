#pragma once
// GpuGapAnalyzer finds the GPU's idle time inside the analysed steps, per stream and per device (the
// union of its streams), and classifies each gap the way Holistic Trace Analysis does: host_wait when
// the next op's launch call started after the previous op ended (the host had not issued it yet),
// kernel_wait when the gap is shorter than consecutive_kernel_delay (30 ns), other otherwise. Beyond
// HTA, each device gap is attributed to what the host was doing during it (the stepscope category
// charged in that time: input, callback, checkpoint, kernel_launch, ...; nothing_traced when no host
// event was active) and the longest gaps name the host events that overlap them. Called by RunAnalyzer.

#include "models/analysis/engine/step_breakdown_analyzer.h"
#include "models/analysis/engine/trace_data.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace stepscope {

enum class GapCause { HostWait, KernelWait, Other };
std::string_view gapCauseName(GapCause c);

struct GpuGap {
    int64_t start = 0, dur = 0;
    int device = 0;
    std::string stream;          // the stream whose op ends the gap
    GapCause cause = GapCause::Other;
    std::string hostActivity;    // stepscope category name, or nothing_traced
    std::vector<std::string> overlapping;  // host events active during the gap, longest overlap first
};

struct GapTotals {
    int64_t count = 0, totalNs = 0;
    std::array<int64_t, 3> byCauseNs{};
};

struct StreamGaps {
    std::string stream;
    int device = 0;
    GapTotals totals;
};

struct GapAnalysis {
    GapTotals device;                            // device level (union of streams), all devices
    std::map<std::string, int64_t> byHostActivityNs;
    std::vector<StreamGaps> streams;             // per stream
    std::vector<GpuGap> top;                     // longest device gaps, longest first
};

class GpuGapAnalyzer {
public:
    static constexpr int64_t kConsecutiveKernelDelayNs = 30;  // HTA default
    static GapAnalysis analyze(const TraceData &trace, const std::vector<int8_t> &types, const Breakdown &stepscope,
                               const StepTimeline &steps, size_t topCount = 20);
};

} // namespace stepscope

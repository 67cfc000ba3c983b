#pragma once
// TfProfilerToolParser reads what the TensorFlow profiler concluded about a run from one of its tool
// files (`*.overview_page.pb`, `*.input_pipeline.pb`, `*.tensorflow_stats.pb`, `*.kernel_stats.pb`):
// the input-bound percentage (the tool's own figure, else recomputed as TensorFlow does from its
// per-step details: input wait + host-to-device over step time), the bottleneck sentence, the device
// type and the top ops. Pure: bytes in, a ToolVerdict out; never throws, a malformed file gives
// `error`. Called by TfProfilerToolImporter and its tests.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

struct ToolTopOp {
    std::string name, category;
    double selfPct = 0;  // share of the tool's own total (device or host self time), in %
};

struct ToolVerdict {
    std::string kind;  // overview_page, input_pipeline, tensorflow_stats, kernel_stats
    std::optional<double> inputPct;
    std::string verdict;     // the bottleneck sentence ("Your program is HIGHLY input-bound because …")
    std::string deviceType;  // GPU, TPU, CPU
    std::vector<ToolTopOp> topOps;  // largest first, at most kTopOps
    int64_t steps = 0;              // per-step details the input figure came from
    std::string error;              // why the file could not be read; empty when it could

    static constexpr size_t kTopOps = 10;
};

class TfProfilerToolParser {
public:
    // The tool a file name says (".overview_page.pb" → overview_page), else empty.
    static std::string kindOf(std::string_view fileName);
    static ToolVerdict read(std::string_view kind, std::string_view bytes);
};

} // namespace stepscope

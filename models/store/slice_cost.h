#pragma once
// SliceCostRow: one row of slice_cost, the FLOPs and bytes of one op that importers/common/op_cost.h
// computed while the op was imported (schema 008_slice_cost.sql). Track, start (relative to the run's
// time base) and name repeat the slice's. Written by SessionWriter, read by SessionReader::sliceCosts,
// which keeps only rows whose figures are plausible (a session may come from someone else).

#include <cmath>
#include <cstdint>
#include <string>

namespace stepscope {

struct SliceCostRow {
    int64_t sliceId = 0, trackId = 0, startNs = 0, nameId = 0;
    double flops = 0, bytes = 0;
    std::string dtype;   // fp64 fp32 tf32 bf16 fp16 fp8 int8 int32 int64; empty when unknown
    std::string shapes;  // the recorded input shapes, compact JSON, at most kMaxShapesLength characters

    static constexpr double kMaxFigure = 1e21;  // more than any one op does or moves
    static constexpr size_t kMaxShapesLength = 160;
    bool plausible() const {
        return std::isfinite(flops) && std::isfinite(bytes) && flops >= 0 && bytes >= 0 && flops <= kMaxFigure &&
               bytes <= kMaxFigure && (flops > 0 || bytes > 0) && shapes.size() <= kMaxShapesLength;
    }
};

} // namespace stepscope

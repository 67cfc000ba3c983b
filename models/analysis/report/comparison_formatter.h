#pragma once
// ComparisonFormatter renders a RunComparison in `stepscope compare`'s three formats. The JSON shape
// is DESIGN.md's "compare --format json" contract (keys may be added, none removed); text and
// markdown are a before/after page: both runs, the step-time and throughput change, the categories
// per step, the biggest op changes and the findings resolved, new and kept.

#include "models/analysis/report/run_comparison.h"

#include <string>

namespace stepscope {

class ComparisonFormatter {
public:
    static std::string json(const RunComparison &c);
    static std::string text(const RunComparison &c, size_t topOps = 15);
    static std::string markdown(const RunComparison &c, size_t topOps = 15);
};

} // namespace stepscope

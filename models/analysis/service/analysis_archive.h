#pragma once
// AnalysisArchive turns a RunAnalysis into bytes and back, so that a session keeps its analysis
// (DerivedResults stores the bytes in analysis_result.result) and a re-open reads it instead of
// re-analysing. One field list per struct (analysis_archive.cpp) serves both directions.
//
// Everything a caller of RunAnalyzer reads is kept. Not kept: Breakdown::unions and ::exclusive,
// the per-type interval lists that only the analyzers themselves read while they run (gaps,
// projections) — a loaded analysis has them empty.
//
// The bytes may come from someone else's session: decode() checks the magic, the format version,
// every length against the bytes left (so nothing is sized by a stored count it cannot back) and
// every enum's range, then the shape the views rely on (a breakdown row per step, a value per type,
// categories mapped to existing types, per-step series one value per step), and throws ArchiveError
// naming the byte offset or the part, and the reason.

#include "models/analysis/engine/run_analysis.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace stepscope {

class ArchiveError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class AnalysisArchive {
public:
    // Raised whenever a field is added, removed or changes meaning: older bytes are then refused
    // (and the run re-analysed), never misread.
    static constexpr uint32_t kFormatVersion = 3;  // 2: RunAnalysis::kernels, 3: ::criticalPath, ::collectives and OpStat::efficiency

    static std::string encode(const RunAnalysis &analysis);
    static RunAnalysis decode(std::string_view bytes);
};

} // namespace stepscope

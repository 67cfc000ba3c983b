#pragma once
// TfDataPipeline finds which stage of a tf.data input pipeline costs the most, the way XProf's
// input-pipeline analyser does (its section 3): every host span named `Iterator::…` is one stage of
// the pipeline tree (`Iterator::Model::ParallelMapV2::TFRecord` is the TFRecord source feeding
// ParallelMapV2), and a stage's cost is its self time over the analysed steps: its spans' time minus
// that of the stages nested in them (work the stage runs itself, such as a map function's ops, stays
// its own). Each stage is labelled by resources/rules/tf_data_stages.tsv as `io` (reading) or
// `preprocessing`; unlabelled stages (Prefetch, Shuffle, …) only pass data on. BottleneckRules takes
// `bottleneck_detail` from the costliest labelled stage; FindingRules names it. Called by RunAnalyzer.

#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/trace_data.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stepscope {

struct TfDataStage {
    std::string name;   // the iterator path, "Iterator::Model::ParallelMapV2"
    std::string kind;   // its own kind, "ParallelMapV2"
    std::string label;  // io, preprocessing, or empty
    int64_t selfNs = 0, count = 0;
};

struct TfDataSummary {
    std::vector<TfDataStage> stages;  // costliest first
    int64_t totalSelfNs = 0;          // over every stage

    bool empty() const { return stages.empty(); }
    // The costliest stage that io/preprocessing rules label; nullptr when none is labelled.
    const TfDataStage *costliestLabelled() const;
    double sharePct(const TfDataStage &s) const;
    // "ParallelMapV2 (Iterator::Model::ParallelMapV2, preprocessing) takes 62.0% of the tf.data pipeline's time"
    std::string describe(const TfDataStage &s) const;
};

class TfDataPipeline {
public:
    // Stages of the spans that start in [lo, hi).
    static TfDataSummary analyze(const TraceData &trace, int64_t lo, int64_t hi, const StepEventRules &stageRules);
    // "ParallelMapV2" of "Iterator::Model::ParallelMapV2[3]".
    static std::string stageKind(std::string_view iteratorName);
};

} // namespace stepscope

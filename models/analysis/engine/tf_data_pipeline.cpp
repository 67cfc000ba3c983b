#include "models/analysis/engine/tf_data_pipeline.h"

#include "models/trace/slice_self_time.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace stepscope {

const TfDataStage *TfDataSummary::costliestLabelled() const {
    for (const TfDataStage &s : stages)
        if (!s.label.empty()) return &s;
    return nullptr;
}

double TfDataSummary::sharePct(const TfDataStage &s) const {
    return totalSelfNs > 0 ? 100.0 * double(s.selfNs) / double(totalSelfNs) : 0.0;
}

std::string TfDataSummary::describe(const TfDataStage &s) const {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f%%", sharePct(s));
    return s.kind + " (" + s.name + (s.label.empty() ? std::string() : ", " + s.label) + ") takes " + pct +
           " of the tf.data pipeline's time";
}

std::string TfDataPipeline::stageKind(std::string_view name) {
    const size_t sep = name.rfind("::");
    std::string_view kind = sep == std::string_view::npos ? name : name.substr(sep + 2);
    if (const size_t bracket = kind.find('['); bracket != std::string_view::npos) kind = kind.substr(0, bracket);
    return std::string(kind);
}

TfDataSummary TfDataPipeline::analyze(const TraceData &trace, int64_t lo, int64_t hi, const StepEventRules &stageRules) {
    TfDataSummary out;
    std::unordered_map<int32_t, bool> isStage;  // by name id
    auto stage = [&](const TraceSlice &s) {
        auto [it, fresh] = isStage.emplace(s.nameId, false);
        if (fresh) it->second = trace.text(s.nameId).starts_with("Iterator::");
        return it->second;
    };
    // Self time by the one loop (sliceSelfTimes), with stages as the nesting: each stage span minus
    // the stage spans directly nested in it (a stage's parent is its nearest stage ancestor).
    std::unordered_map<int32_t, size_t> byName;
    const std::vector<int64_t> selfNs = sliceSelfTimes(
        trace.slices.size(), [&](size_t i) { return std::pair(trace.slices[i].start, trace.slices[i].end); }, [&](auto add) {
            for (const TraceSlice &s : trace.slices) {
                if (s.gpu || s.start < lo || s.start >= hi || !stage(s)) continue;
                int32_t p = s.parent;
                while (p >= 0 && !stage(trace.slices[size_t(p)])) p = trace.slices[size_t(p)].parent;
                if (p >= 0 && trace.slices[size_t(p)].start >= lo) add(size_t(p), s.start, s.end);
            }
        });
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu || s.start < lo || s.start >= hi || !stage(s)) continue;
        auto [it, fresh] = byName.emplace(s.nameId, out.stages.size());
        if (fresh) {
            TfDataStage st;
            st.name = std::string(trace.text(s.nameId));
            st.kind = stageKind(st.name);
            st.label = stageRules.label(st.kind);
            out.stages.push_back(std::move(st));
        }
        TfDataStage &st = out.stages[it->second];
        const int64_t self = selfNs[i];
        st.selfNs += self;
        ++st.count;
        out.totalSelfNs += self;
    }
    std::stable_sort(out.stages.begin(), out.stages.end(), [](const TfDataStage &a, const TfDataStage &b) { return a.selfNs > b.selfNs; });
    return out;
}

} // namespace stepscope

#include "models/analysis/tf_train_function_steps.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace stepscope {

bool TfTrainFunctionSteps::isTrainFunctionName(std::string_view name) {
    if (name == "train_function") return true;
    const size_t at = name.find("__inference_");
    if (at == std::string_view::npos) return false;
    const std::string_view fn = name.substr(at + 12);
    return fn.starts_with("train_function") || fn.starts_with("distributed_train_function") ||
           fn.starts_with("_train_function");
}

std::vector<StepRow> TfTrainFunctionSteps::find(const TraceData &trace) {
    std::vector<bool> matches(trace.slices.size(), false);
    std::vector<size_t> outermost;
    std::vector<std::pair<int64_t, int64_t>> inputWaits;  // IteratorGetNext* spans on the host
    std::unordered_map<int32_t, int> kind;                // name id -> 0 other, 1 function, 2 input
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu) continue;
        auto [it, fresh] = kind.emplace(s.nameId, 0);
        if (fresh) {
            const std::string_view name = trace.text(s.nameId);
            it->second = isTrainFunctionName(name) ? 1 : name.starts_with("IteratorGetNext") ? 2 : 0;
        }
        if (it->second == 2) inputWaits.emplace_back(s.start, s.end);
        if (it->second != 1) continue;
        matches[i] = true;
        bool nested = false;
        for (int32_t p = s.parent; p >= 0 && !nested; p = trace.slices[size_t(p)].parent) nested = matches[size_t(p)];
        if (!nested) outermost.push_back(i);
    }
    std::sort(outermost.begin(), outermost.end(),
              [&](size_t a, size_t b) { return trace.slices[a].start < trace.slices[b].start; });
    std::vector<std::pair<int64_t, int64_t>> runs;  // one per execution
    for (size_t i : outermost) {
        const TraceSlice &s = trace.slices[i];
        if (!runs.empty() && s.start < runs.back().second)
            runs.back().second = std::max(runs.back().second, s.end);  // the same execution, seen again
        else
            runs.emplace_back(s.start, s.end);
    }
    std::vector<StepRow> steps;
    if (runs.empty()) return steps;
    // The first step's lead-in: the last input wait that ends before the first execution.
    int64_t firstStart = runs.front().first, leadInEnd = std::numeric_limits<int64_t>::min();
    for (const auto &[start, end] : inputWaits)
        if (end <= runs.front().first && end > leadInEnd) {
            leadInEnd = end;
            firstStart = std::min(runs.front().first, start);
        }
    int64_t prevEnd = firstStart;
    for (size_t k = 0; k < runs.size(); ++k) {
        const int64_t start = k == 0 ? firstStart : prevEnd;
        steps.push_back({int64_t(k), start, runs[k].second - start});
        prevEnd = runs[k].second;
    }
    return steps;
}

} // namespace stepscope

#include "models/store/train_function_steps.h"

#include <algorithm>
#include <limits>

namespace stepscope {

TrainFunctionSteps::Role TrainFunctionSteps::roleOf(std::string_view name) {
    if (name.starts_with("IteratorGetNext")) return Role::InputWait;
    if (name == "train_function") return Role::Execution;
    const size_t at = name.find("__inference_");
    if (at == std::string_view::npos) return Role::None;
    const std::string_view fn = name.substr(at + 12);
    return fn.starts_with("train_function") || fn.starts_with("distributed_train_function") ||
                   fn.starts_with("_train_function")
               ? Role::Execution
               : Role::None;
}

void TrainFunctionSteps::add(Role role, int64_t start, int64_t end) {
    if (role == Role::Execution) m_executions.emplace_back(start, end);
    else if (role == Role::InputWait) m_inputWaits.emplace_back(start, end);
}

std::vector<StepRow> TrainFunctionSteps::steps() const {
    std::vector<StepRow> steps;
    if (m_executions.empty()) return steps;
    std::vector<std::pair<int64_t, int64_t>> sorted = m_executions;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::pair<int64_t, int64_t>> runs;  // one per execution
    for (const auto &[start, end] : sorted) {
        if (!runs.empty() && start < runs.back().second)
            runs.back().second = std::max(runs.back().second, end);  // the same execution, seen again
        else
            runs.emplace_back(start, end);
    }
    // The first step's lead-in: the last input wait that ends before the first execution.
    int64_t firstStart = runs.front().first, leadInEnd = std::numeric_limits<int64_t>::min();
    for (const auto &[start, end] : m_inputWaits)
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

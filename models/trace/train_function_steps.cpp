#include "models/trace/train_function_steps.h"

#include <algorithm>
#include <limits>

namespace stepscope {

TrainFunctionSteps::Role TrainFunctionSteps::roleOf(std::string_view name) {
    if (name.starts_with("IteratorGetNext")) return Role::InputWait;
    if (name == "FunctionRun") return Role::FunctionRun;
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
    else if (role == Role::FunctionRun) m_functionRuns.emplace_back(start, end);
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
    // TensorFlow's own grouping: the executor's runs of the function inside each execution.
    std::vector<std::pair<int64_t, int64_t>> functionRuns = m_functionRuns;
    std::sort(functionRuns.begin(), functionRuns.end());
    std::vector<std::pair<int64_t, int64_t>> roots(runs.size(), {0, -1});
    bool everyRunHasRoot = !functionRuns.empty();
    for (size_t k = 0; k < runs.size() && everyRunHasRoot; ++k) {
        auto it = std::lower_bound(functionRuns.begin(), functionRuns.end(), std::make_pair(runs[k].first, std::numeric_limits<int64_t>::min()));
        for (; it != functionRuns.end() && it->first < runs[k].second; ++it) {
            if (it->second > runs[k].second) continue;
            roots[k] = roots[k].second < roots[k].first ? *it : std::make_pair(roots[k].first, std::max(roots[k].second, it->second));
        }
        everyRunHasRoot = roots[k].second > roots[k].first;
    }
    if (everyRunHasRoot) {
        for (size_t k = 0; k < runs.size(); ++k) steps.push_back({int64_t(k), roots[k].first, roots[k].second - roots[k].first});
        return steps;
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

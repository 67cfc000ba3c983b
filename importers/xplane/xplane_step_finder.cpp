#include "importers/xplane/xplane_step_finder.h"

#include <charconv>

namespace stepscope {

void XPlaneStepFinder::add(Source source, int64_t step, int64_t startNs, int64_t durNs) {
    auto &steps = m_steps[int(source)];
    auto [it, inserted] = steps.emplace(step, Span{startNs, durNs});
    if (!inserted && (startNs < it->second.start || (startNs == it->second.start && durNs > it->second.dur)))
        it->second = {startNs, durNs};
}

void XPlaneStepFinder::addTrainFunctionSpan(std::string_view name, int64_t startNs, int64_t durNs) {
    if (const auto role = TrainFunctionSteps::roleOf(name); role != TrainFunctionSteps::Role::None)
        m_trainFunction.add(role, startNs, startNs + durNs);
}

int64_t XPlaneStepFinder::write(SessionWriter &writer, int64_t runId, std::string &from) const {
    static const char *const kFrom[] = {"host step markers (step_num / ProfilerStep#N)", "the device \"Steps\" line",
                                        "host step roots with group_id"};
    for (int s = 0; s < 3; ++s) {
        if (m_steps[s].empty())
            continue;
        for (const auto &[n, span] : m_steps[s])
            writer.addStep(runId, n, span.start, span.dur);
        from = kFrom[s];
        writer.setStepSource(runId, StepSource::Markers);
        return int64_t(m_steps[s].size());
    }
    const std::vector<StepRow> steps = m_trainFunction.steps();
    for (const StepRow &step : steps)
        writer.addStep(runId, step.step, step.startNs, step.durNs);
    writer.setStepSource(runId, steps.empty() ? StepSource::WholeTrace : StepSource::TfTrainFunction);
    from = "the executions of the TensorFlow training function (no step markers)";
    return int64_t(steps.size());
}

bool XPlaneStepFinder::isGroupRootName(std::string_view name) {
    return name == "TraceContext" || name.starts_with("train") || name.starts_with("Train");
}

int64_t XPlaneStepFinder::profilerStepNumber(std::string_view name) {
    constexpr std::string_view kPrefix = "ProfilerStep#";
    if (!name.starts_with(kPrefix))
        return -1;
    int64_t n = -1;
    const char *end = name.data() + name.size();
    const auto res = std::from_chars(name.data() + kPrefix.size(), end, n);
    return res.ec == std::errc() && res.ptr == end && n >= 0 ? n : -1;
}

} // namespace stepscope

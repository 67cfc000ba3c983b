#include "importers/common/step_detector.h"

#include <algorithm>

namespace stepscope {

void StepDetector::addCandidate(int priority, std::optional<int64_t> number, int64_t startNs, int64_t durNs) {
    Candidates &c = m_classes[priority];
    if (!number) {
        c.unnumbered.push_back({startNs, durNs});
        return;
    }
    auto [it, inserted] = c.numbered.emplace(*number, Span{startNs, durNs});
    if (inserted)
        return;
    ++c.repeated;
    if (startNs < it->second.start || (startNs == it->second.start && durNs > it->second.dur))
        it->second = {startNs, durNs};
}

int64_t StepDetector::write(ImportContext &ctx, int64_t runId, const std::function<std::string(int)> &describe) const {
    SessionWriter &writer = ctx.writer();
    if (m_classes.empty()) {
        const std::vector<StepRow> steps = m_trainFunction.steps();
        for (const StepRow &step : steps)
            writer.addStep(runId, step.step, step.startNs, step.durNs);
        writer.setStepSource(runId, steps.empty() ? StepSource::WholeTrace : StepSource::TfTrainFunction);
        if (!steps.empty())
            ctx.info(ImportLogCode::StepSourceNote, "",
                     std::to_string(steps.size()) +
                         " steps from the executions of the TensorFlow training function (the trace has no step markers)");
        return int64_t(steps.size());
    }
    const auto &[best, c] = *m_classes.begin();
    std::map<int64_t, Span> steps = c.numbered;
    std::vector<Span> unnumbered = c.unnumbered;
    std::sort(unnumbered.begin(), unnumbered.end(),
              [](const Span &a, const Span &b) { return a.start != b.start ? a.start < b.start : a.dur < b.dur; });
    for (size_t k = 0; k < unnumbered.size(); ++k)
        steps.emplace(int64_t(k), unnumbered[k]);
    for (const auto &[n, span] : steps)
        writer.addStep(runId, n, span.start, span.dur);
    writer.setStepSource(runId, StepSource::Markers);
    if (const std::string from = describe ? describe(best) : std::string(); !from.empty())
        ctx.info(ImportLogCode::StepSourceNote, "", std::to_string(steps.size()) + " steps from " + from);
    if (!unnumbered.empty())
        ctx.info(ImportLogCode::UnnumberedSteps, "", std::to_string(unnumbered.size()) + " step ranges carry no number: numbered 0.." +
                                                      std::to_string(unnumbered.size() - 1) + " in time order");
    // A name rule's step repeated is a problem of the trace; a format's own markers repeat by design
    // (XPlane: the step's stats on nested events).
    if (c.repeated > 0 && best >= 0 && best < int(m_rules.size()))
        ctx.warn(ImportLogCode::DuplicateStep, "", std::to_string(c.repeated) + " step slices repeat a step number; the earliest is kept");
    return int64_t(steps.size());
}

} // namespace stepscope

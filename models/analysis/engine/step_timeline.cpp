#include "models/analysis/engine/step_timeline.h"

#include "models/trace/train_function_steps.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace stepscope {

namespace {
// A session imported before run.step_source existed: its TF 2 runs without markers have no step rows.
std::vector<StepRow> legacyTrainFunctionSteps(const TraceData &trace) {
    TrainFunctionSteps finder;
    std::unordered_map<int32_t, TrainFunctionSteps::Role> roles;
    for (const TraceSlice &s : trace.slices) {
        if (s.gpu) continue;
        auto [it, fresh] = roles.emplace(s.nameId, TrainFunctionSteps::Role::None);
        if (fresh) it->second = TrainFunctionSteps::roleOf(trace.text(s.nameId));
        finder.add(it->second, s.start, s.end);
    }
    return finder.steps();
}
} // namespace

StepTimeline StepTimeline::build(const std::vector<StepRow> &stored, std::optional<StepSource> source,
                                 const TraceData &trace) {
    if (stored.empty() && !source) {
        const std::vector<StepRow> executions = legacyTrainFunctionSteps(trace);
        if (!executions.empty()) return build(executions, StepSource::TfTrainFunction, trace);
    }
    const std::vector<StepRow> &markers = stored;
    StepTimeline out;
    out.source = source == StepSource::TfTrainFunction ? StepSource::TfTrainFunction : StepSource::Markers;
    if (markers.empty()) {
        out.source = StepSource::WholeTrace;
        // With GPU work, the step starts at the first of it (or the call that launched it): set-up
        // before it (MPI_Init, cudaMalloc, reading the data) belongs to no step.
        int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
        int64_t firstGpu = std::numeric_limits<int64_t>::max();
        for (const TraceSlice &s : trace.slices) {
            lo = std::min(lo, s.start);
            hi = std::max(hi, s.end);
            if (!s.gpu) continue;
            firstGpu = std::min(firstGpu, s.start);
            if (s.correlation < 0) continue;
            if (const auto l = trace.launchStartByCorrelation.find(s.correlation); l != trace.launchStartByCorrelation.end())
                firstGpu = std::min(firstGpu, l->second);
        }
        if (firstGpu != std::numeric_limits<int64_t>::max()) lo = std::max(lo, firstGpu);
        if (lo < hi) out.steps.push_back({0, lo, hi, lo, hi, 0});
        return out;
    }
    std::vector<StepRow> sorted = markers;
    std::sort(sorted.begin(), sorted.end(), [](const StepRow &a, const StepRow &b) { return a.startNs < b.startNs; });
    std::vector<int64_t> starts, lastGpuEnd(sorted.size(), std::numeric_limits<int64_t>::min());
    std::vector<int64_t> gpuOps(sorted.size(), 0);
    starts.reserve(sorted.size());
    for (const StepRow &s : sorted) starts.push_back(s.startNs);
    for (const TraceSlice &s : trace.slices) {
        if (!s.gpu || s.correlation < 0) continue;
        const auto it = trace.launchStartByCorrelation.find(s.correlation);
        if (it == trace.launchStartByCorrelation.end()) continue;
        const int64_t launch = it->second;
        const auto pos = std::upper_bound(starts.begin(), starts.end(), launch);
        if (pos == starts.begin()) continue;
        const size_t k = size_t(pos - starts.begin()) - 1;
        if (launch >= sorted[k].startNs + sorted[k].durNs) continue;
        lastGpuEnd[k] = std::max(lastGpuEnd[k], s.end);
        ++gpuOps[k];
    }
    int64_t prevEnd = std::numeric_limits<int64_t>::min();
    for (size_t k = 0; k < sorted.size(); ++k) {
        AnalysisStep a;
        a.step = sorted[k].step;
        a.hostStart = sorted[k].startNs;
        a.hostEnd = sorted[k].startNs + sorted[k].durNs;
        a.start = std::max(prevEnd, a.hostStart);
        a.end = std::max(a.hostEnd, lastGpuEnd[k]);
        a.end = std::max(a.end, a.start);
        a.gpuOps = gpuOps[k];
        prevEnd = a.end;
        out.steps.push_back(a);
    }
    return out;
}

void StepTimeline::restrict(std::optional<int64_t> first, std::optional<int64_t> last) {
    std::erase_if(steps, [&](const AnalysisStep &s) { return (first && s.step < *first) || (last && s.step > *last); });
}

IntervalList StepTimeline::windows() const {
    IntervalList w;
    w.reserve(steps.size());
    for (const AnalysisStep &s : steps) w.push_back({s.start, s.end});
    return w;
}

double StepTimeline::meanBetweenStepsNs() const {
    int64_t between = 0;
    for (size_t k = 1; k < steps.size(); ++k) between += std::max<int64_t>(0, steps[k].start - steps[k - 1].end);
    return steps.size() > 1 ? double(between) / double(steps.size() - 1) : 0.0;
}

int64_t StepTimeline::totalNs() const {
    int64_t t = 0;
    for (const AnalysisStep &s : steps) t += s.dur();
    return t;
}

} // namespace stepscope

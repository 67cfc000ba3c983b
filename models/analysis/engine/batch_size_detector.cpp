#include "models/analysis/engine/batch_size_detector.h"

#include "models/store/analysis_input_reader.h"
#include "models/store/slice_args.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace stepscope {

namespace {
// 1: a layer whose first input leads with the batch; 2: a copy of the batch to the device.
int candidateKind(std::string_view name) {
    static const std::string_view layers[] = {"aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::convolution",
                                              "aten::_convolution", "aten::cudnn_convolution", "aten::linear",
                                              "aten::embedding"};
    static const std::string_view copies[] = {"aten::to", "aten::_to_copy", "aten::copy_"};
    for (std::string_view n : layers)
        if (name == n) return 1;
    for (std::string_view n : copies)
        if (name == n) return 2;
    return 0;
}

std::string dimsText(const std::vector<int64_t> &dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
    return s + "]";
}

constexpr size_t kStepsToLook = 8;
constexpr int kMaxLookups = 64;  // args read per run; without record_shapes none of them has shapes
} // namespace

std::optional<DetectedBatchSize> BatchSizeDetector::detect(const TraceData &trace, const SessionStore &store,
                                                           const RunRow &run, const StepTimeline &steps) {
    std::unordered_map<int32_t, int> kindOf;  // string id -> candidate kind, for the run's own names
    for (const auto &[id, text] : trace.strings)
        if (const int k = candidateKind(text)) kindOf.emplace(id, k);
    if (kindOf.empty() || steps.steps.empty()) return std::nullopt;

    SliceArgsLookup argsOf(store);
    int lookups = 0;
    auto dimsOf = [&](const TraceSlice &s) -> std::optional<std::vector<int64_t>> {
        ++lookups;
        std::optional<std::vector<int64_t>> dims;
        if (const auto args = argsOf.at(trace.tracks[size_t(s.track)].id, s.start - run.timeBaseNs, int64_t(s.nameId)))
            dims = slice_args::firstInputDims(*args);
        if (dims && (dims->size() < 2 || dims->front() <= 0)) dims.reset();
        return dims;
    };

    struct Vote {
        int64_t count = 0;
        std::string op, dims;
    };
    std::map<int64_t, Vote> votes;
    size_t looked = 0;
    std::vector<size_t> candidates[2];
    for (const AnalysisStep &step : steps.steps) {
        if (looked++ >= kStepsToLook || lookups >= kMaxLookups) break;
        candidates[0].clear();
        candidates[1].clear();
        for (const TraceTrack &t : trace.tracks) {
            if (t.gpu) continue;
            const auto begin = trace.slices.begin() + ptrdiff_t(t.first), end = begin + ptrdiff_t(t.count);
            auto it = std::lower_bound(begin, end, step.hostStart, [](const TraceSlice &s, int64_t x) { return s.start < x; });
            for (; it != end && it->start < step.hostEnd; ++it)
                if (const auto k = kindOf.find(it->nameId); k != kindOf.end())
                    candidates[k->second - 1].push_back(size_t(it - trace.slices.begin()));
        }
        for (auto &c : candidates)
            std::sort(c.begin(), c.end(), [&](size_t a, size_t b) { return trace.slices[a].start < trace.slices[b].start; });
        bool found = false;
        for (const auto &c : candidates) {
            for (size_t i : c) {
                if (lookups >= kMaxLookups) break;
                const TraceSlice &s = trace.slices[i];
                if (const auto dims = dimsOf(s)) {
                    Vote &v = votes[dims->front()];
                    if (v.count++ == 0) {
                        v.op = std::string(trace.text(s.nameId));
                        v.dims = dimsText(*dims);
                    }
                    found = true;
                    break;
                }
            }
            if (found) break;
        }
    }
    if (votes.empty()) return std::nullopt;
    int64_t seen = 0;
    for (const auto &[value, v] : votes) seen += v.count;
    const auto best = std::max_element(votes.begin(), votes.end(), [](const auto &a, const auto &b) { return a.second.count < b.second.count; });
    DetectedBatchSize d;
    d.value = best->first;
    d.evidence = "leading dimension of the first input of " + best->second.op + " " + best->second.dims + " in " +
                 std::to_string(best->second.count) + " of " + std::to_string(seen) + " steps";
    return d;
}

} // namespace stepscope

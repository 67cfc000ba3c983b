#include "models/analysis/engine/type_refinement.h"

#include <algorithm>
#include <unordered_map>

namespace stepscope {

bool TypeRefinement::isBlockingCopyCall(std::string_view name) {
    for (std::string_view prefix : {"cudaMemcpy", "cuMemcpy", "hipMemcpy"})
        if (name.starts_with(prefix)) return name.find("Async") == std::string_view::npos;
    return false;
}

bool TypeRefinement::isSyncApiCall(std::string_view name) {
    for (std::string_view prefix : {"cuda", "cu", "hip"})
        if (name.starts_with(prefix)) {
            const std::string_view rest = name.substr(prefix.size());
            for (std::string_view what : {"DeviceSynchronize", "StreamSynchronize", "EventSynchronize", "CtxSynchronize"})
                if (rest.starts_with(what)) return true;
        }
    return false;
}

bool TypeRefinement::isBlockingMemset(std::string_view name) {
    for (std::string_view prefix : {"cudaMemset", "cuMemset", "hipMemset"})
        if (name.starts_with(prefix)) return name.find("Async") == std::string_view::npos;
    return false;
}

void TypeRefinement::apply(const TraceData &trace, const Preset &preset, std::vector<int8_t> &types) {
    const int launch = preset.typeIndex("kernel_launch");
    bool gpuWork = false;
    for (const TraceTrack &t : trace.tracks) gpuWork = gpuWork || (t.gpu && t.count > 0);
    if (!gpuWork) {
        if (launch < 0 || preset.defaultHost < 0) return;
        for (size_t i = 0; i < trace.slices.size(); ++i)
            if (!trace.slices[i].gpu && types[i] == launch) types[i] = int8_t(preset.defaultHost);
        return;
    }
    std::vector<int8_t> copyTypes;
    for (const char *name : {"h2d", "d2h", "d2d"})
        if (const int t = preset.typeIndex(name); t >= 0) copyTypes.push_back(int8_t(t));
    if (copyTypes.empty()) return;
    std::unordered_map<int32_t, bool> blocking;  // by name id
    std::unordered_map<int64_t, int8_t> copyOf;  // correlation id -> the GPU copy's type
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu && s.correlation >= 0 && std::find(copyTypes.begin(), copyTypes.end(), types[i]) != copyTypes.end())
            copyOf.emplace(s.correlation, types[i]);
    }
    if (copyOf.empty()) return;
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu || s.correlation < 0) continue;
        auto [it, fresh] = blocking.emplace(s.nameId, false);
        if (fresh) it->second = isBlockingCopyCall(trace.text(s.nameId));
        if (!it->second) continue;
        if (const auto c = copyOf.find(s.correlation); c != copyOf.end()) types[i] = c->second;
    }
}

} // namespace stepscope

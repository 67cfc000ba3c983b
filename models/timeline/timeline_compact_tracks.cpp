#include "models/timeline/timeline_compact_tracks.h"

namespace stepscope {

std::vector<int> compactTracksOf(const TimelineModel &model, int64_t runId) {
    const auto &tracks = model.tracks();
    int host = -1, gpu = -1, other = -1;
    auto busier = [&](int candidate, int best) { return best < 0 || tracks[size_t(candidate)].sliceCount > tracks[size_t(best)].sliceCount; };
    // The rank's step work (its step markers, the input pipeline's waits, the launches) is on the
    // thread that runs the training loop, not on autograd's backward thread, which is often the
    // busier one: that thread is chosen only when there is no other.
    auto backward = [&](int t) { return tracks[size_t(t)].name.contains(QLatin1String("autograd"), Qt::CaseInsensitive); };
    auto betterHost = [&](int candidate, int best) {
        if (best < 0) return true;
        if (backward(candidate) != backward(best)) return backward(best);
        return busier(candidate, best);
    };
    for (int t = 0; t < int(tracks.size()); ++t) {
        const TimelineTrack &track = tracks[size_t(t)];
        if (track.runId != runId || track.isValueTrack() || track.sliceCount == 0) continue;
        if (track.kind == QLatin1String("host_thread")) {
            if (betterHost(t, host)) host = t;
        } else if (track.kind == QLatin1String("gpu_stream")) {
            if (busier(t, gpu)) gpu = t;
        } else if (busier(t, other)) {
            other = t;
        }
    }
    std::vector<int> out;
    if (host >= 0) out.push_back(host);
    if (gpu >= 0) out.push_back(gpu);
    if (out.empty() && other >= 0) out.push_back(other);
    return out;
}

} // namespace stepscope

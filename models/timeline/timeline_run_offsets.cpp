// TimelineModel: view-only display shifts per run. Aligning the ranks of a job at a step moves each
// run's tracks by changing their baseNs (the time of their relative zero), so the level-of-detail
// summaries and the exact-slice windows, kept in relative time, are read as they are — no copy, no
// second cache — and flows, details and search hits, placed through baseNs, follow.
#include "models/timeline/timeline_model.h"

#include <algorithm>

namespace stepscope {

void TimelineModel::setRunOffsets(std::unordered_map<int64_t, int64_t> offsets) {
    std::erase_if(offsets, [](const auto &o) { return o.second == 0; });
    if (offsets == m_runOffsets) return;
    m_runOffsets = std::move(offsets);
    for (TimelineTrack &t : m_tracks) {
        const int64_t offset = runOffset(t.runId);
        t.baseNs += offset - t.offsetNs;
        t.offsetNs = offset;
    }
    m_steps = m_recordedSteps;
    for (TimelineStep &s : m_steps) s.startNs += runOffset(s.runId);
    std::stable_sort(m_steps.begin(), m_steps.end(), [](const TimelineStep &a, const TimelineStep &b) { return a.startNs < b.startNs; });
    emit runOffsetsChanged();
}

int64_t TimelineModel::runOffset(int64_t runId) const {
    const auto it = m_runOffsets.find(runId);
    return it == m_runOffsets.end() ? 0 : it->second;
}

int TimelineModel::runGroup(int64_t runId) const {
    for (size_t g = 0; g < m_groups.size(); ++g)
        if (m_groups[g].parent < 0 && m_groups[g].runId == runId && runId != 0) return int(g);
    return -1;
}

std::optional<int64_t> TimelineModel::recordedStepStart(int64_t runId, int64_t step) const {
    for (const TimelineStep &s : m_recordedSteps)
        if (s.runId == runId && s.step == step) return s.startNs;
    return std::nullopt;
}

} // namespace stepscope

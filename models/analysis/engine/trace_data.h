#pragma once
// TraceData owns one run's timed events as the analysis needs them: host-thread and GPU-stream slices
// in absolute ns, per track ordered by start, with the nesting the import stored (parent, and the
// time direct children cover by the one self-time rule, slice_self_time),
// whether each host slice launches GPU work (itself or something nested in it), and the map from a
// correlation id to its host launch call, and the strings its slices name. TraceLoader fills it from
// the session with one indexed query per track (or one scan when the run is most of the session). Built by RunAnalyzer; read by every analyzer of models/analysis.

#include "models/analysis/rules/category_rules.h"
#include "models/concurrency/cancel_token.h"
#include "models/store/session_reader.h"

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {

struct TraceTrack {
    int64_t id = 0;
    bool gpu = false;
    int device = -1;  // GPU index for GPU streams; -1 on host threads
    std::string name;
    size_t first = 0, count = 0;  // slice range in TraceData::slices
};

struct TraceSlice {
    int64_t start = 0, end = 0;
    int64_t correlation = -1;   // -1: none
    int64_t selfNs = 0;         // its duration less what its direct children cover (sliceSelfTimes)
    int32_t nameId = 0, catId = -1;
    int32_t track = 0;          // index into TraceData::tracks
    int32_t parent = -1;        // the stored parent (index), on the same track
    bool gpu = false;
    bool launches = false;      // host: this slice or a descendant carries a correlation id (launch call)
    int64_t dur() const { return end - start; }
};

struct TraceData {
    std::vector<TraceTrack> tracks;
    std::vector<TraceSlice> slices;
    // The names and categories this run's slices use, by string id (the session's ids, so they can
    // be matched against the slice table); never the whole string table, which grows with every run.
    std::unordered_map<int32_t, std::string> strings;
    std::unordered_map<int64_t, int64_t> launchStartByCorrelation;  // host launch call start (abs ns)

    std::string_view text(int32_t id) const {
        const auto it = strings.find(id);
        return it != strings.end() ? std::string_view(it->second) : std::string_view();
    }
    int deviceOf(const TraceSlice &s) const { return tracks[size_t(s.track)].device; }

    // Per-slice type under a preset (Preset::kIgnore for ignored slices); classification is cached
    // per distinct (name, category, side, launches).
    std::vector<int8_t> classify(const Preset &preset) const;
};

// Thrown by the analysis when its cancel flag is raised (a background job superseded or closed).
struct AnalysisCancelled : std::runtime_error {
    AnalysisCancelled() : std::runtime_error("analysis cancelled") {}
};
inline void throwIfCancelled(const CancelToken &cancel) {
    if (cancel.cancelled()) throw AnalysisCancelled();
}

class TraceLoader {
public:
    // `cancel` (optional) is polled while reading; raised, load() throws AnalysisCancelled.
    explicit TraceLoader(const SessionStore &store, const CancelToken &cancel = {})
        : m_store(store), m_cancel(cancel) {}
    // All host-thread and GPU-stream slices of the run; `timeBaseNs` makes them absolute.
    TraceData load(const RunRow &run) const;

private:
    void loadStrings(TraceData &d) const;
    // Orders track `t` by start and turns stored parent ids into indices, child time, launch marks.
    static void resolveNesting(TraceData &d, const TraceTrack &t, std::vector<int64_t> &parentIds);
    const SessionStore &m_store;
    CancelToken m_cancel;
};

} // namespace stepscope

#pragma once
// Plain value types shared by the timeline model, its helpers and the views that draw them.
// Times here are absolute ns (run time base + the source's clock offset), like TimeRangeController.

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace stepscope {

// One thing to draw on a track: a real slice (block == false; sliceId may be -1 when it came
// from the level-of-detail cache and is resolved on click), or a density block standing for
// `count` sub-pixel events that were merged — never dropped.
struct TimelineItem {
    int64_t startNs = 0;
    int64_t durNs = 0;
    int64_t busyNs = 0;     // summed durations of the events it stands for
    int64_t sliceId = -1;
    int32_t nameId = 0;     // the slice's name; for a block, the name of its longest event
    uint32_t count = 1;     // events this item stands for
    uint32_t depth = 0;
    bool block = false;
    int64_t endNs() const { return startNs + durNs; }
};

class MetricLod;

// The samples behind a counter or metric track: a Chrome-trace "C" counter (its value holds until
// the next sample) or an instance metric (a sample older than three periods means a gap).
struct TimelineValueSeries {
    const MetricLod *lod = nullptr;  // absolute times
    QString unit;                    // "%", "B", ... ; empty for plain numbers
    int64_t periodNs = 0;            // 0: each value holds until the next sample
    double min = 0, max = 0;         // over the whole series: a fixed scale while panning
    double limit = 0;                // a capacity drawn as a line (GPU memory total); 0: none
    // The scale reaches the capacity (nvidia-smi's used vs total); false for the allocator's series,
    // whose shape within a step matters: scaled to the data, the total named in the corner.
    bool limitOnScale = true;
};

struct TimelineTrack {
    int64_t id = 0;          // track.id; negative for metric tracks (they have no track row)
    int64_t runId = 0;
    int group = 0;           // index into TimelineModel::groups() (the device/host sub-group)
    QString name;
    QString kind;            // host_thread, gpu_stream, counter, metric, other
    std::optional<int64_t> device;
    int depthCount = 1;
    int64_t sliceCount = 0;
    int64_t baseNs = 0;      // display time of the track's relative zero (run time base + offsetNs)
    int64_t offsetNs = 0;    // its run's view-only display shift (ranks aligned at a step); 0: as recorded
    int valueSeries = -1;    // counter and metric tracks: index into TimelineModel's value series
    bool isValueTrack() const { return valueSeries >= 0; }
};

// Groups form two levels: a run (parent == -1) and its device/host sub-groups.
struct TimelineGroup {
    QString title;
    int parent = -1;
    int64_t runId = 0;            // runs only (0 for the instance-metrics group)
    std::optional<int64_t> rank;  // runs that are a rank of a data-parallel job
    std::vector<int> children;  // sub-group indices (runs only)
    std::vector<int> tracks;    // track indices (sub-groups only)
};

struct TimelineStep {
    int64_t runId = 0;
    int64_t step = 0;
    int64_t startNs = 0;
    int64_t durNs = 0;
};

struct TimelineFlow {
    int64_t fromSliceId = 0, toSliceId = 0;
    int fromTrack = -1, toTrack = -1;  // track indices
    int64_t fromNs = 0, toNs = 0;      // absolute: end of the source slice, start of the target
    uint32_t fromDepth = 0, toDepth = 0;
};

// Everything the details panel shows about one slice.
struct SliceDetails {
    int64_t id = -1;
    int track = -1;
    QString name, category, trackName, argsJson;
    int64_t startNs = 0, durNs = 0, selfNs = 0;
    uint32_t depth = 0;
    std::optional<int64_t> correlation;
    struct Link {
        int64_t id = 0;
        QString name;
        int64_t startNs = 0, durNs = 0;
        QString relation;  // "parent", "flow to", "flow from", "correlated"
    };
    std::vector<Link> parents;  // innermost first
    std::vector<Link> linked;   // flow / correlation partners (launch <-> kernel)
    bool valid() const { return id >= 0; }
};

} // namespace stepscope

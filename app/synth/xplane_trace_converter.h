#pragma once
// XPlaneTraceConverter: turns the generator's own Kineto-style trace (read back from its .json.gz,
// one event per line, names without escapes) into an XSpace, so the XPlane output is the very same
// training loop as the Chrome output, event for event. Host-process X events become lines of the
// `/host:CPU` plane (one per thread), device X events lines of `/device:GPU:N` (one per stream);
// args become stats (`correlation` → `correlation_id`); the step root ProfilerStep#N is written as
// XPlaneStepMarkers says: as it is with `step_num` and `_r` stats, as TensorFlow's Keras marker
// `train` (step_num, _r), or, without markers, as an execution of the Keras training function
// (`__inference_train_function_…`, no stats) the way TF 2 records a `fit` without step markers;
// metadata, instants, flows (implied by correlation ids) and the profiler's capture span are not
// carried over. A `Task Environment` plane holds profile_start_time = the trace's base time.
// Memory: per line, compact event records and their pre-encoded stats, until the file is written.
// Called by writeXPlaneLogdir().

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::synth {

enum class XPlaneStepMarkers { ProfilerStep, TfTrain, None };

struct XPlaneConversionStats {
    int64_t events = 0;  // XEvents written
    int64_t lines = 0;
    int64_t bytes = 0;
};

class XPlaneTraceConverter {
public:
    XPlaneTraceConverter(int64_t profileStartNs, int gpus, std::string host,
                         XPlaneStepMarkers markers = XPlaneStepMarkers::ProfilerStep);

    // Reads the trace (gzip) and writes the XSpace; throws std::runtime_error naming the path.
    XPlaneConversionStats convert(const std::filesystem::path &traceGz, const std::filesystem::path &xplanePb);

private:
    struct Event {
        int64_t start = 0;
        int64_t dur = 0;
        int64_t metadataId = 0;
        uint32_t statsOffset = 0;
        uint32_t statsLength = 0;
    };
    struct Line {
        std::string name;
        std::vector<Event> events;
        std::string stats;  // encoded XStat fields (field 4 of XEvent) back to back
    };
    struct Plane {
        std::string name;
        std::map<int64_t, Line> lines;  // by line id (tid / stream)
        std::map<std::string, int64_t, std::less<>> eventIds;
        std::map<std::string, int64_t, std::less<>> statIds;
        int64_t statId(std::string_view text);
        int64_t eventId(std::string_view text);
    };

    void addEvent(std::string_view line);
    std::string encodePlane(const Plane &plane, int64_t id, const std::string &planeStats) const;

    int64_t profileStartNs_;
    std::string host_;
    XPlaneStepMarkers markers_;
    Plane hostPlane_;
    std::vector<Plane> devices_;
    std::map<int64_t, std::string> threadNames_;
    int64_t endNs_ = 0;
    XPlaneConversionStats stats_;
};

} // namespace stepscope::synth

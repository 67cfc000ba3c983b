#pragma once
// TraceEvent is one trace event in the Chrome trace event model (phase, name, pid/tid, ts/dur, ids,
// args), the shared input of TraceEventBuffer: ChromeTraceTokenizer hands them out as it reads JSON
// (also TensorFlow's trace_viewer JSON), NsysTokenizer builds them from an Nsight Systems export.
// TraceHeader holds the trace-wide facts (time base, rank, devices) TraceEventWriter uses. Views
// point into the producer's buffers and stay valid only until it hands out the next event.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope {

struct TraceEvent {
    char ph = 0;                 // phase letter; 0 when absent (e.g. an empty {} element), '?' when longer
    std::string_view phText;     // the phase as written (to name an unknown one such as "XX")
    std::string_view name;
    std::string_view cat;
    std::string_view pid;        // opaque key: number text as written, or the string's text
    std::string_view tid;
    std::optional<int64_t> tsNs;  // parsed exactly from µs text
    std::optional<int64_t> durNs;
    bool tsInvalid = false;      // present but not a number (or overflowing)
    bool durInvalid = false;
    std::string_view id;         // "id" (or "id2" local/global text)
    std::string_view bindId;     // flow v2
    bool flowIn = false;
    bool flowOut = false;
    char bp = 0;                 // flow binding point ('e' = enclosing slice)
    char scope = 0;              // instant scope: g, p, t
    std::string_view args;       // raw JSON text of "args" (empty when absent)

    // A few args, extracted once here so the importer does not re-scan the text.
    std::optional<int64_t> correlation;
    std::optional<int64_t> externalId;
    std::optional<int64_t> device;
    std::optional<int64_t> stream;
    std::optional<int64_t> bytes;
    // PyTorch allocator "[memory]" instants: the device and the allocator's totals after the event.
    std::optional<int64_t> memDeviceType;       // args "Device Type": 0 CPU, 1 CUDA
    std::optional<int64_t> memDeviceId;         // args "Device Id" (-1 for the CPU)
    std::optional<int64_t> totalAllocated;      // args "Total Allocated" (bytes)
    std::optional<int64_t> totalReserved;       // args "Total Reserved" (bytes)
    std::optional<int64_t> sortIndex;           // args.sort_index (M)
    std::optional<int64_t> startTimeSinceEpochUs; // SageMaker timelines (M process_name)
    std::string_view argName;    // args.name (M)
    std::string_view argLabels;  // args.labels (M process_labels)

    int64_t offset = 0;          // decompressed byte offset of the event's '{'
};

struct TraceDeviceProperty {
    int64_t id = 0;
    std::string name;
    std::optional<int64_t> totalGlobalMem;  // bytes
};

struct TraceHeader {
    bool objectForm = false;
    std::optional<int64_t> baseTimeNs;          // Kineto baseTimeNanoseconds
    std::string displayTimeUnit;                // display hint only; ts stays µs
    std::optional<int64_t> rank;                // distributedInfo.rank
    std::optional<int64_t> worldSize;
    std::string backend;                        // distributedInfo.backend
    std::vector<TraceDeviceProperty> devices;  // deviceProperties (or computeProperties)
    std::string traceName;
    std::string hostName;                       // Kineto site key host_name
    std::optional<int64_t> schemaVersion;       // Kineto writes 1
    bool sawTraceEvents = false;
    std::optional<std::string> framework;       // set by an importer that knows it (else guessed from the keys)
};

} // namespace stepscope
